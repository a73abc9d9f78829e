// Sends e-mails and SMS. In development every message lands in the dev outbox; e-mails also go out
// over SMTP and SMS through an SmsSender when those are configured. Production has no outbox: messages
// only go to SMTP and the SMS sender. Deliveries start once the process transaction has committed, so
// a request that fails sends nothing.
import nodemailer, { type Transporter } from 'nodemailer';
import { normalizedRecipient } from '../flow/identifierRules.ts';
import type { DeliveryChannel, Metrics } from '../metrics/Metrics.ts';
import { newId } from '../randomValues.ts';
import type { OutboxMessage } from '../store/OutboxRepo.ts';
import type { Store } from '../store/Store.ts';
import type { MessageText } from './messageTexts.ts';
import type { SmsSender } from './SmsSender.ts';

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

export interface MessengerOptions {
  smtp?: SmtpSettings;
  sms?: SmsSender;
  /** keep every message (code and link included) in the dev outbox */
  outbox: boolean;
  /** counts each delivery sent or failed */
  metrics: Metrics;
}

export class Messenger {
  private readonly transport: Transporter | undefined;
  private readonly from: string;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly options: MessengerOptions,
  ) {
    const smtp = options.smtp;
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

  async email(projectId: string, to: string, message: MessageText, extra: { code?: string; link?: string }, now: number): Promise<void> {
    await this.record({ projectId, channel: 'email', to, ...message, ...extra, createdAt: now });
    const transport = this.transport;
    if (transport) {
      this.deliver('email', `e-mail to ${to}`, () => transport.sendMail({ from: this.from, to, subject: message.subject, text: message.text }));
    }
  }

  async sms(projectId: string, to: string, message: MessageText, extra: { code?: string }, now: number): Promise<void> {
    await this.record({ projectId, channel: 'sms', to, ...message, ...extra, createdAt: now });
    const sender = this.options.sms;
    if (sender) this.deliver('sms', `SMS to ${to}`, () => sender.send({ to, text: message.text, projectId }));
  }

  /** Waits for deliveries still under way (graceful shutdown). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    this.transport?.close();
  }

  /** Starts a delivery after commit; a failure is logged without the message (it holds the code). */
  private deliver(channel: DeliveryChannel, what: string, send: () => Promise<unknown>): void {
    this.store.afterCommit(() => {
      const sending = send()
        .then(
          () => this.options.metrics.delivery('sent', channel),
          (error: unknown) => {
            this.options.metrics.delivery('failed', channel);
            this.log.error(`Delivery of the ${what} failed`, error instanceof Error ? error.message : String(error));
          },
        )
        .finally(() => this.inFlight.delete(sending));
      this.inFlight.add(sending);
    });
  }

  private async record(message: Omit<OutboxMessage, 'id'>): Promise<void> {
    if (this.options.outbox) await this.store.outbox.insert({ id: newId('msg'), ...message }, normalizedRecipient(message.to));
  }
}
