import type { ProcessState } from '../flow/processState.ts';
import type { Db } from './openDatabase.ts';

export interface ProcessRecord {
  id: string;
  projectId: string;
  state: ProcessState;
  createdAt: number;
  expiresAt: number;
  endedAt: number | null;
}

interface Row {
  id: string;
  project_id: string;
  state: string;
  created_at: number;
  expires_at: number;
  ended_at: number | null;
}

export class ProcessesRepo {
  constructor(private readonly db: Db) {}

  insert(p: { id: string; tokenHash: string; projectId: string; state: ProcessState; createdAt: number; expiresAt: number }): void {
    this.db
      .prepare(
        'INSERT INTO processes (id, token_hash, project_id, state, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(p.id, p.tokenHash, p.projectId, JSON.stringify(p.state), p.createdAt, p.expiresAt);
  }

  findByTokenHash(tokenHash: string): ProcessRecord | undefined {
    const row = this.db.prepare('SELECT * FROM processes WHERE token_hash = ?').get(tokenHash) as Row | undefined;
    return row && toRecord(row);
  }

  get(id: string): ProcessRecord | undefined {
    const row = this.db.prepare('SELECT * FROM processes WHERE id = ?').get(id) as Row | undefined;
    return row && toRecord(row);
  }

  saveState(id: string, state: ProcessState): void {
    this.db.prepare('UPDATE processes SET state = ? WHERE id = ?').run(JSON.stringify(state), id);
  }

  end(id: string, now: number): void {
    this.db.prepare('UPDATE processes SET ended_at = ? WHERE id = ? AND ended_at IS NULL').run(now, id);
  }
}

function toRecord(row: Row): ProcessRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    state: JSON.parse(row.state) as ProcessState,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    endedAt: row.ended_at,
  };
}
