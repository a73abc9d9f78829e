import type { ProcessState } from '../flow/processState.ts';
import type { Database } from './Database.ts';

export interface ProcessRecord {
  id: string;
  /** sha256 of the token the browser that started it holds (read back from the store; given apart on insert) */
  tokenHash?: string;
  projectId: string;
  state: ProcessState;
  createdAt: number;
  expiresAt: number;
  endedAt: number | null;
}

interface Row {
  id: string;
  token_hash: string;
  project_id: string;
  state: string;
  created_at: number;
  expires_at: number;
  ended_at: number | null;
}

const SAVE_STATE = 'UPDATE processes SET state = ? WHERE id = ?';

export class ProcessesRepo {
  constructor(private readonly db: Database) {}

  async insert(p: { id: string; tokenHash: string; projectId: string; state: ProcessState; createdAt: number; expiresAt: number }): Promise<void> {
    await this.db.run('INSERT INTO processes (id, token_hash, project_id, state, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)', [
      p.id,
      p.tokenHash,
      p.projectId,
      JSON.stringify(p.state),
      p.createdAt,
      p.expiresAt,
    ]);
  }

  /**
   * The process a token belongs to. Inside a transaction it stays locked until commit, so two
   * requests on one process (on any instance) run one after the other.
   */
  async lockByTokenHash(tokenHash: string): Promise<ProcessRecord | undefined> {
    const row = await this.db.get<Row>(`SELECT * FROM processes WHERE token_hash = ?${this.db.forUpdate}`, [tokenHash]);
    return row && toRecord(row);
  }

  async get(id: string): Promise<ProcessRecord | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM processes WHERE id = ?', [id]);
    return row && toRecord(row);
  }

  /** The process by id, locked until commit inside a transaction. */
  async lock(id: string): Promise<ProcessRecord | undefined> {
    const row = await this.db.get<Row>(`SELECT * FROM processes WHERE id = ?${this.db.forUpdate}`, [id]);
    return row && toRecord(row);
  }

  async saveState(id: string, state: ProcessState): Promise<void> {
    await this.db.run(SAVE_STATE, [JSON.stringify(state), id]);
  }

  /**
   * saveState at the transaction's commit (Database.writeAtCommit), the state already serialised
   * (JSON.stringify of a ProcessState): for a state nothing reads again before it.
   */
  saveStateTextAtCommit(id: string, json: string): void {
    this.db.writeAtCommit(SAVE_STATE, [json, id]);
  }

  async end(id: string, now: number): Promise<void> {
    await this.db.run('UPDATE processes SET ended_at = ? WHERE id = ? AND ended_at IS NULL', [now, id]);
  }
}

function toRecord(row: Row): ProcessRecord {
  return {
    id: row.id,
    tokenHash: row.token_hash,
    projectId: row.project_id,
    state: JSON.parse(row.state) as ProcessState,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    endedAt: row.ended_at,
  };
}
