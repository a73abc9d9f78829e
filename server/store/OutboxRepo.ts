import type { Database } from './Database.ts';

export interface OutboxMessage {
  id: string;
  projectId: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  /** e-mails: the HTML part */
  html?: string;
  code?: string;
  link?: string;
  createdAt: number;
}

interface Row {
  id: string;
  project_id: string;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  code: string | null;
  link: string | null;
  created_at: number;
}

export class OutboxRepo {
  constructor(private readonly db: Database) {}

  async insert(m: OutboxMessage, recipientNormalized: string): Promise<void> {
    await this.db.run(
      `INSERT INTO outbox_messages (id, project_id, channel, recipient, recipient_normalized, subject, text, html, code, link, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [m.id, m.projectId, m.channel, m.to, recipientNormalized, m.subject, m.text, m.html ?? null, m.code ?? null, m.link ?? null, m.createdAt],
    );
  }

  /** Newest first, at most `limit`; `recipientNormalized` filters by recipient, `projectId` by project. */
  async list(filter: { recipientNormalized?: string; projectId?: string } = {}, limit = 200): Promise<OutboxMessage[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.recipientNormalized !== undefined) {
      where.push('recipient_normalized = ?');
      params.push(filter.recipientNormalized);
    }
    if (filter.projectId !== undefined) {
      where.push('project_id = ?');
      params.push(filter.projectId);
    }
    const rows = await this.db.all<Row>(
      `SELECT * FROM outbox_messages${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`,
      [...params, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      projectId: r.project_id,
      channel: r.channel,
      to: r.recipient,
      subject: r.subject,
      text: r.text,
      ...(r.html !== null ? { html: r.html } : {}),
      ...(r.code !== null ? { code: r.code } : {}),
      ...(r.link !== null ? { link: r.link } : {}),
      createdAt: r.created_at,
    }));
  }
}
