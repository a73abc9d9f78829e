// The webhook endpoints of each project (migration 12): where its events go, which of them, and the
// endpoint's signing secret, sealed. Written by the admin command; read on every event, so that a new or
// removed endpoint takes effect without a restart.
import type { Database } from './Database.ts';

export interface WebhookEndpointRecord {
  id: string;
  projectId: string;
  url: string;
  /** the event types it receives; null: every one */
  events: string[] | null;
  /** `whsec_…`, as KeyStore.seal stored it */
  sealedSecret: string;
  createdAt: number;
  /** when it was disabled (migration 20); null: enabled */
  disabledAt: number | null;
}

/** An endpoint as the admin command lists it: what waits for it and what was given up on. */
export interface WebhookEndpointSummary extends Omit<WebhookEndpointRecord, 'sealedSecret'> {
  pending: number;
  givenUp: number;
}

interface Row {
  id: string;
  project_id: string;
  url: string;
  events: string | null;
  secret: string;
  created_at: number | string;
  disabled_at: number | string | null;
}

function toRecord(row: Row): WebhookEndpointRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    url: row.url,
    events: row.events === null ? null : (JSON.parse(row.events) as string[]),
    sealedSecret: row.secret,
    createdAt: Number(row.created_at),
    disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
  };
}

export class WebhookEndpointsRepo {
  constructor(private readonly db: Database) {}

  async insert(e: Omit<WebhookEndpointRecord, 'disabledAt'>): Promise<void> {
    await this.db.run('INSERT INTO webhook_endpoints (id, project_id, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      e.id,
      e.projectId,
      e.url,
      e.events === null ? null : JSON.stringify(e.events),
      e.sealedSecret,
      e.createdAt,
    ]);
  }

  /** Whether any project has an endpoint (a plain read). */
  async any(): Promise<boolean> {
    return (await this.db.get('SELECT 1 AS found FROM webhook_endpoints LIMIT 1')) !== undefined;
  }

  async get(id: string): Promise<WebhookEndpointRecord | undefined> {
    const row = await this.db.get<Row>('SELECT * FROM webhook_endpoints WHERE id = ?', [id]);
    return row && toRecord(row);
  }

  /** The project's enabled endpoints that receive `type`. */
  async receiving(projectId: string, type: string): Promise<WebhookEndpointRecord[]> {
    const rows = await this.db.all<Row>('SELECT * FROM webhook_endpoints WHERE project_id = ? AND disabled_at IS NULL ORDER BY created_at, id', [projectId]);
    return rows.map(toRecord).filter((e) => e.events === null || e.events.includes(type));
  }

  /** Every endpoint (of one project, when given), with the counts of its deliveries. */
  async summaries(projectId?: string): Promise<WebhookEndpointSummary[]> {
    const rows = await this.db.all<Row & { pending: number | string; given_up: number | string }>(
      `SELECT e.id, e.project_id, e.url, e.events, e.created_at, e.disabled_at,
         (SELECT COUNT(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending,
         (SELECT COUNT(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status <> 'pending') AS given_up
       FROM webhook_endpoints e ${projectId === undefined ? '' : 'WHERE e.project_id = ?'} ORDER BY e.created_at, e.id`,
      projectId === undefined ? [] : [projectId],
    );
    return rows.map((row) => {
      const { sealedSecret: _, ...rest } = toRecord({ ...row, secret: '' });
      return { ...rest, pending: Number(row.pending), givenUp: Number(row.given_up) };
    });
  }

  /** Disables an endpoint (at `at`) or enables it again (null); false when there is none or it already is. */
  async setDisabled(id: string, at: number | null): Promise<boolean> {
    const changed = await this.db.run(`UPDATE webhook_endpoints SET disabled_at = ? WHERE id = ? AND disabled_at IS ${at === null ? 'NOT ' : ''}NULL`, [at, id]);
    return changed > 0;
  }

  /** Removes an endpoint; its deliveries still waiting go with it. False when there is none. */
  async remove(id: string): Promise<boolean> {
    return (await this.db.run('DELETE FROM webhook_endpoints WHERE id = ?', [id])) > 0;
  }

  /** Seals the secrets stored in the clear (a development database, once KEY_ENCRYPTION_SECRET is set); the count. */
  rewritePlainSecrets(sealedPrefix: string, seal: (value: string) => string): Promise<number> {
    return this.db.transaction(async () => {
      let count = 0;
      for (const row of await this.db.all<{ id: string; secret: string }>('SELECT id, secret FROM webhook_endpoints')) {
        if (row.secret.startsWith(sealedPrefix)) continue;
        count += await this.db.run('UPDATE webhook_endpoints SET secret = ? WHERE id = ?', [seal(row.secret), row.id]);
      }
      return count;
    });
  }
}
