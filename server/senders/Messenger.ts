// Sends e-mails and SMS. In development every message lands in the dev outbox; e-mails also go out
// over SMTP and SMS through an SmsSender when those are configured. Production has no outbox: messages
// only go to SMTP and the SMS sender. A message to send is written to the deliveries table in the
// transaction of its code or link (so a request that fails sends nothing, and a committed one is not
// lost to a failed send or a stopped process); the DeliveryWorker sends it, at once after the commit.
import nodemailer, { type Transporter } from 'nodemailer';
import { normalizedRecipient } from '../flow/identifierRules.ts';
import type { Metrics } from '../metrics/Metrics.ts';
import { newId } from '../randomValues.ts';
import type { DeliveryChannel } from '../store/DeliveriesRepo.ts';
import type { OutboxMessage } from '../store/OutboxRepo.ts';
import type { Store } from '../store/Store.ts';
import {
  DEFAULT_DELIVERY_SETTINGS,
  DeliveryWorker,
  maskedRecipient,
  type DeliveryEvent,
  type DeliverySettings,
  type OutgoingMessage,
  type Sealer,
} from './DeliveryWorker.ts';
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
  /** counts each delivery attempt's outcome */
  metrics: Metrics;
  /** seals messages waiting in the deliveries table (the KeyStore) */
  keys: Sealer;
  now: () => number;
  /** each one given replaces its default (DEFAULT_DELIVERY_SETTINGS) */
  delivery?: Partial<DeliverySettings>;
  /** called for each attempt's outcome (counters) */
  onDelivery?: (event: DeliveryEvent) => void;
}

export class Messenger {
  private readonly transport: Transporter | undefined;
  private readonly from: string;
  private readonly worker: DeliveryWorker;

  constructor(
    private readonly store: Store,
    log: Logger,
    private readonly options: MessengerOptions,
  ) {
    const settings = { ...DEFAULT_DELIVERY_SETTINGS, ...options.delivery };
    const smtp = options.smtp;
    this.from = smtp?.from ?? 'Demo <no-reply@localhost>';
    if (smtp?.url) this.transport = nodemailer.createTransport(smtp.url);
    else if (smtp?.host) {
      this.transport = nodemailer.createTransport({
        host: smtp.host,
        port: smtp.port ?? 587,
        secure: smtp.port === 465,
        ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
        // nodemailer waits minutes by default; the worker gives up on a send after sendTimeoutMs anyway
        connectionTimeout: settings.sendTimeoutMs,
        greetingTimeout: settings.sendTimeoutMs,
        socketTimeout: settings.sendTimeoutMs,
      });
    }
    this.worker = new DeliveryWorker({
      queue: store.deliveries,
      keys: options.keys,
      send: (d, message) => this.send(d.channel, d.projectId, message),
      describe: (d, message) => `${d.channel === 'email' ? 'e-mail' : 'SMS'} ${d.id} to ${maskedRecipient(message.to)}`,
      log,
      now: options.now,
      settings,
      onOutcome: (event) => {
        options.metrics.delivery(event.outcome === 'retry' ? 'retried' : event.outcome, event.channel);
        options.onDelivery?.(event);
      },
    });
  }

  /** Starts delivering (where a sender is configured): messages left by a restart or another instance go first. */
  start(): void {
    if (this.transport || this.options.sms) this.worker.start();
  }

  async email(
    projectId: string,
    to: string,
    message: MessageText,
    extra: { code?: string; link?: string },
    now: number,
    expiresAt: number,
  ): Promise<void> {
    await this.record({ projectId, channel: 'email', to, ...message, ...extra, createdAt: now });
    const outgoing = { to, subject: message.subject, text: message.text, ...(message.html !== undefined ? { html: message.html } : {}) };
    if (this.transport) await this.enqueue(projectId, 'email', outgoing, now, expiresAt);
  }

  async sms(projectId: string, to: string, message: MessageText, extra: { code?: string }, now: number, expiresAt: number): Promise<void> {
    await this.record({ projectId, channel: 'sms', to, ...message, ...extra, createdAt: now });
    if (this.options.sms) await this.enqueue(projectId, 'sms', { to, subject: message.subject, text: message.text }, now, expiresAt);
  }

  /** Stops the worker once the sends under way have ended (graceful shutdown). */
  async close(): Promise<void> {
    await this.worker.stop();
    this.transport?.close();
  }

  /** In the caller's transaction: the message, sealed, waits for the worker, which is nudged after commit. */
  private async enqueue(projectId: string, channel: DeliveryChannel, message: OutgoingMessage, now: number, expiresAt: number): Promise<void> {
    const payload = this.options.keys.seal(JSON.stringify(message));
    await this.store.deliveries.insert({ id: newId('dlv'), projectId, channel, payload, createdAt: now, expiresAt });
    this.store.afterCommit(() => this.worker.nudge());
  }

  private async send(channel: DeliveryChannel, projectId: string, message: OutgoingMessage): Promise<void> {
    if (channel === 'email') {
      if (!this.transport) throw new Error('no SMTP server is configured');
      // with html, nodemailer sends multipart/alternative: the plain text first, the HTML preferred
      const { to, subject, text, html } = message;
      await this.transport.sendMail({ from: this.from, to, subject, text, ...(html !== undefined ? { html } : {}) });
      return;
    }
    if (!this.options.sms) throw new Error('no SMS sender is configured');
    await this.options.sms.send({ to: message.to, text: message.text, projectId });
  }

  private async record(message: Omit<OutboxMessage, 'id'>): Promise<void> {
    if (this.options.outbox) await this.store.outbox.insert({ id: newId('msg'), ...message }, normalizedRecipient(message.to));
  }
}
