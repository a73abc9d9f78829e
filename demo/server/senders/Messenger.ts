// Sends e-mails and SMS: every message lands in the dev outbox; e-mails also go out over SMTP when
// SMTP settings are given. SMS are never sent anywhere else.
import nodemailer, { type Transporter } from 'nodemailer';
import { normalizedRecipient } from '../flow/identifierRules.ts';
import { newId } from '../randomValues.ts';
import type { OutboxMessage } from '../store/OutboxRepo.ts';
import type { Store } from '../store/Store.ts';
import type { MessageText } from './messageTexts.ts';

export interface SmtpSettings {
  url?: string;
  host?: string;
  port?: number;
  user?: string;
  pass?: string;
  from?: string;
}

export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export class Messenger {
  private readonly transport: Transporter | undefined;
  private readonly from: string;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    smtp?: SmtpSettings,
  ) {
    this.from = smtp?.from ?? 'Demo <no-reply@localhost>';
    if (smtp?.url) this.transport = nodemailer.createTransport(smtp.url);
    else if (smtp?.host) {
      this.transport = nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port ?? 587,
        secure: smtp.port === 465,
        ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
      });
    }
  }

  email(projectId: string, to: string, message: MessageText, extra: { code?: string; link?: string }, now: number): OutboxMessage {
    const stored = this.record({ projectId, channel: 'email', to, ...message, ...extra, createdAt: now });
    if (this.transport) {
      const sending = this.transport
        .sendMail({ from: this.from, to, subject: message.subject, text: message.text })
        .catch((error: unknown) => this.log.error(`SMTP delivery to ${to} failed`, error))
        .finally(() => this.inFlight.delete(sending));
      this.inFlight.add(sending);
    }
    return stored;
  }

  sms(projectId: string, to: string, message: MessageText, extra: { code?: string }, now: number): OutboxMessage {
    return this.record({ projectId, channel: 'sms', to, ...message, ...extra, createdAt: now });
  }

  /** Waits for SMTP deliveries still under way (graceful shutdown). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    this.transport?.close();
  }

  private record(message: Omit<OutboxMessage, 'id'>): OutboxMessage {
    const stored = { id: newId('msg'), ...message };
    this.store.outbox.insert(stored, normalizedRecipient(message.to));
    return stored;
  }
}
