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

  /** Newest first; `recipientNormalized` filters by recipient. */
  async list(recipientNormalized?: string, limit = 200): Promise<OutboxMessage[]> {
    const rows =
      recipientNormalized === undefined
        ? await this.db.all<Row>('SELECT * FROM outbox_messages ORDER BY seq DESC LIMIT ?', [limit])
        : await this.db.all<Row>('SELECT * FROM outbox_messages WHERE recipient_normalized = ? ORDER BY seq DESC LIMIT ?', [recipientNormalized, limit]);
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
