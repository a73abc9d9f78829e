// The console's client of its own server (/api/ on the page's origin; /work/console-contract is the
// contract the server side builds to). Every call but GET/HEAD carries the CSRF token the session
// answered; an error answers a ConsoleApiError with the server's stable type and per-field messages.
// A destructive action refused with `recent_login_required` asks the page for a new sign-in (the
// `reauthenticate` hook) and is sent once more after it.

export interface Operator {
  id: string;
  email: string;
  role: Role;
  /** the projects of an admin or support operator: ids (the operators list) or ids with names (the session) */
  projects: (string | { id: string; name: string })[];
}

/** A project of an operator as its id. */
export function projectId(project: string | { id: string }): string {
  return typeof project === 'string' ? project : project.id;
}
export type Role = 'owner' | 'admin' | 'support';

export interface SessionBody {
  operator: Operator;
  csrfToken: string;
}

export class ConsoleApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ConsoleApiError';
  }
}

export interface ApiOptions {
  fetch?: typeof fetch;
  /** signs the operator in again; resolves once a new session (and CSRF token) is set */
  reauthenticate?: () => Promise<void>;
  /** the session is gone (401): the page goes back to the sign-in */
  onSignedOut?: () => void;
}

type Query = Record<string, string | number | undefined | null>;

/** `path?query` with the empty values left out. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function errorOf(response: Response): Promise<ConsoleApiError> {
  let body: { error?: { type?: string; message?: string; fields?: Record<string, string> } } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // not JSON (a proxy's page): the status alone tells
  }
  const error = body.error ?? {};
  return new ConsoleApiError(response.status, error.type ?? `http_${response.status}`, error.message ?? response.statusText, error.fields ?? {});
}

export class ConsoleApi {
  private csrfToken: string | undefined;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ApiOptions = {}) {
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  }

  setReauthenticate(reauthenticate: () => Promise<void>): void {
    this.options.reauthenticate = reauthenticate;
  }

  setOnSignedOut(onSignedOut: () => void): void {
    this.options.onSignedOut = onSignedOut;
  }

  /** A raw request to the console's API; the answer is checked (ok) but not read. */
  async send(method: string, path: string, body?: unknown, retried = false): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method !== 'GET' && method !== 'HEAD' && this.csrfToken) headers['X-Console-CSRF'] = this.csrfToken;
    const response = await this.fetchImpl(`/api${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (response.ok) return response;
    const error = await errorOf(response);
    if (error.type === 'recent_login_required' && !retried && this.options.reauthenticate) {
      await this.options.reauthenticate();
      return this.send(method, path, body, true);
    }
    if (error.status === 401 && !path.startsWith('/session')) this.options.onSignedOut?.();
    throw error;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.send(method, path, body);
    return (await response.json()) as T;
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.json<T>('GET', withQuery(path, query));
  }
  post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.json<T>('POST', path, body);
  }
  patch<T>(path: string, body: unknown): Promise<T> {
    return this.json<T>('PATCH', path, body);
  }
  delete<T>(path: string): Promise<T> {
    return this.json<T>('DELETE', path);
  }

  /** The operator of the cookie's session, or undefined when there is none. */
  async session(): Promise<SessionBody | undefined> {
    try {
      return this.remember(await this.get<SessionBody>('/session'));
    } catch (error) {
      if (error instanceof ConsoleApiError && error.status === 401) return undefined;
      throw error;
    }
  }

  /** Trades the widget's short session for the console's cookie. */
  async signIn(shortSession: string): Promise<SessionBody> {
    return this.remember(await this.post<SessionBody>('/session', { shortSession }));
  }

  async signOut(): Promise<void> {
    try {
      await this.send('DELETE', '/session');
    } finally {
      this.csrfToken = undefined;
    }
  }

  private remember(body: SessionBody): SessionBody {
    this.csrfToken = body.csrfToken;
    return body;
  }
}

/** Path segments escaped for a URL (ids come from the server, but a search box feeds some). */
export function path(strings: TemplateStringsArray, ...values: string[]): string {
  return strings.reduce((text, part, i) => text + part + (i < values.length ? encodeURIComponent(values[i]!) : ''), '');
}
