// How an SMS leaves the server. The dev outbox keeps every message anyway in development; production
// needs one of these: an HTTP webhook (most SMS gateways take one) or a command that sends it.
import { execFile } from 'node:child_process';

export interface SmsSender {
  /** what it is, for the start-up log (never a secret) */
  readonly description: string;
  send(message: { to: string; text: string; projectId: string }): Promise<void>;
}

const SEND_TIMEOUT_MS = 10_000;

/**
 * POSTs `{ to, text, projectId }` as JSON to a URL (with `Authorization: Bearer <token>` when a token is
 * set). Any 2xx answer counts as sent.
 */
export class WebhookSmsSender implements SmsSender {
  readonly description: string;

  constructor(
    private readonly url: string,
    private readonly token?: string,
  ) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('SMS_WEBHOOK_URL must be an http(s) URL');
    this.description = `webhook ${parsed.origin}${parsed.pathname}`;
  }

  async send(message: { to: string; text: string; projectId: string }): Promise<void> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}) },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`the SMS webhook answered ${response.status}`);
  }
}

/**
 * Runs a program (no shell) with the message in its environment: SMS_TO, SMS_TEXT, SMS_PROJECT_ID. Exit
 * code 0 counts as sent.
 */
export class CommandSmsSender implements SmsSender {
  readonly description: string;

  constructor(private readonly command: string) {
    this.description = `command ${command}`;
  }

  send(message: { to: string; text: string; projectId: string }): Promise<void> {
    return new Promise((resolve, reject) => {
      execFile(
        this.command,
        [],
        { timeout: SEND_TIMEOUT_MS, env: { ...process.env, SMS_TO: message.to, SMS_TEXT: message.text, SMS_PROJECT_ID: message.projectId } },
        (error) => (error ? reject(new Error(`the SMS command failed: ${error.message}`)) : resolve()),
      );
    });
  }
}
