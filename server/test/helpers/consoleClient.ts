/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// An operator's browser on the console: signs in through the console project's widget calls (e-mail
// code) and posts the short session to the console, then calls /api/ with its cookie and CSRF token.
import { runAdmin } from '../../admin.ts';
import { Client, databaseEnv, enterEmailCode, type ApiResponse, type TestServer } from './testServer.ts';

export class ConsoleClient {
  cookie = '';
  csrfToken = '';
  setCookie = '';

  constructor(readonly consoleUrl: string) {}

  async call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    options: { origin?: string | null; csrf?: string | null; fetchSite?: string } = {},
  ): Promise<ApiResponse<T>> {
    const origin = options.origin === undefined ? this.consoleUrl : options.origin;
    const csrf = options.csrf === undefined ? this.csrfToken : options.csrf;
    const res = await fetch(this.consoleUrl + path, {
      method,
      headers: {
        ...(origin !== null ? { Origin: origin } : {}),
        ...(csrf ? { 'X-Console-CSRF': csrf } : {}),
        ...(options.fetchSite ? { 'Sec-Fetch-Site': options.fetchSite } : {}),
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the text as it is
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  /** Posts a short session; keeps the cookie and CSRF token it answers. */
  async postSession(shortSession: string): Promise<ApiResponse> {
    const res = await this.call('POST', '/api/session', { shortSession });
    const cookie = res.headers.get('set-cookie');
    if (cookie) {
      this.setCookie = cookie;
      this.cookie = cookie.split(';')[0]!;
    }
    if (res.status === 200) this.csrfToken = res.body.csrfToken;
    return res;
  }
}

/** The console project's short session of `email`, by the widget's e-mail code log-in. */
export async function consoleShortSession(server: TestServer, email: string): Promise<string> {
  const widget = new Client(server.url, 'pro-console', server.api.consoleUrl);
  await widget.init({}, 'login-init');
  const code = await widget.step('/v2/auth/login/init', { identifierValue: email, isPhone: false });
  if (code.block !== 'email-verify') throw new Error(`the console's log-in answered ${JSON.stringify(code)}`);
  const done = await enterEmailCode(widget, email);
  return done.data.shortSession as string;
}

/** Adds an operator with the admin command and signs them in to the console. */
export async function signedInOperator(server: TestServer, email: string, role: string, projects: string[] = []): Promise<{ console: ConsoleClient; id: string }> {
  const added = (await runAdmin(['operators', 'add', email, '--role', role, ...projects.flatMap((p) => ['--project', p])], databaseEnv(server.dir))) as { id: string };
  const client = new ConsoleClient(server.api.consoleUrl!);
  const res = await client.postSession(await consoleShortSession(server, email));
  if (res.status !== 200) throw new Error(`signing in ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { console: client, id: added.id };
}
