import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';
import { CorbadoError, processNotFound, tooManyRequests, unhandledBackendError } from '../errors';
import { $language } from '../i18n/i18n';
import { toJson } from '../toJson';
import type {
  ClientInformation,
  GenericResponse,
  IdentifierType,
  MeIdentifierCreateRequest,
  MeIdentifierDeleteRequest,
  MeIdentifierUpdateRequest,
  MeIdentifierVerifyFinishRequest,
  MeIdentifierVerifyStartRequest,
  MeResponse,
  MeUpdateRequest,
  PasskeyAppendStartResponse,
  PasskeyListResponse,
  ProcessInitRequest,
  ProcessInitResponse,
  ProcessResponse,
  RefreshResponse,
  SessionConfig,
  SignupFieldAnswer,
  SocialProvider,
  AuthType,
  UserDetailsConfig,
  UserSessionsResponse,
  VerificationMethod,
} from './types';

type Method = 'get' | 'post' | 'patch' | 'delete';

/** The account calls (PATCH/DELETE /v2/me and /v2/me/identifier*), each with the body it takes. */
export interface AccountCalls {
  'patch v2/me': MeUpdateRequest;
  'delete v2/me': undefined;
  'post v2/me/identifier': MeIdentifierCreateRequest;
  'patch v2/me/identifier': MeIdentifierUpdateRequest;
  'delete v2/me/identifier': MeIdentifierDeleteRequest;
  'post v2/me/identifier/verify/start': MeIdentifierVerifyStartRequest;
  'post v2/me/identifier/verify/finish': MeIdentifierVerifyFinishRequest;
  'delete v2/me/social-account': { socialAccountID: string };
}


const VERSION = typeof __CORBADO_VERSION__ === 'string' ? __CORBADO_VERSION__ : '0.0.0-dev';

export const DEFAULT_TIMEOUT = 30_000;

/** Thrown when a request was cancelled on purpose (unmount, newer request): callers ignore it. */
export class RequestCancelled extends Error {
  override readonly name = 'RequestCancelled';
}

export interface ApiOptions {
  projectId: string;
  /** base URL for calls made before a process or session config names another */
  frontendApiUrl: string;
  timeout: number;
  preview: boolean;
}

interface CallOptions {
  json?: unknown;
  searchParams?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * A CORS simple request, which the browser sends without a preflight (a fresh visitor's first calls):
   * what the X-Corbado headers carry goes in the query instead (SIMPLE_QUERY), the JSON body as
   * text/plain. A server that refuses that form (400, 415: one that reads the project from the header
   * only) is asked once more the usual way.
   */
  simple?: boolean;
}

/** The query parameters of a simple request, for the headers they stand in for (projectID: the server's PROJECT_QUERY). */
export const SIMPLE_QUERY = { 'X-Corbado-ProjectID': 'projectID', 'X-Corbado-SDK': 'sdk', 'X-Corbado-Flags': 'flags' } as const;

/** Maps anything ky or fetch throws to the error catalogue (SPEC.md section 8). */
export async function toCatalogueError(error: unknown): Promise<unknown> {
  if (error instanceof DOMException && error.name === 'AbortError') return new RequestCancelled('cancelled');
  if (error instanceof HTTPError) {
    if (error.response.status === 429) {
      const limited = tooManyRequests(retryAfterSeconds(error.response.headers.get('Retry-After')));
      limited.status = 429;
      return limited;
    }
    let type = 'no_data_in_response';
    try {
      const body = (await error.response.json()) as { error?: { type?: unknown } };
      if (typeof body?.error?.type === 'string') type = body.error.type;
    } catch {
      // a body that is not JSON keeps the generic type
    }
    const mapped = type === 'process_not_available' ? processNotFound() : unhandledBackendError(type);
    mapped.status = error.response.status;
    return mapped;
  }
  if (error instanceof TimeoutError) return unhandledBackendError('timeout');
  // fetch rejects (browsers: with a TypeError) when the network or CORS fails, and a body may not
  // parse: either way there is no answer to read
  return error instanceof CorbadoError ? error : unhandledBackendError('no_data_in_response');
}

/**
 * Retry-After in whole seconds: a number of seconds or an HTTP date (RFC 9110, 10.2.3); undefined when
 * absent or unreadable. Cross-origin, the header is readable only when the server exposes it
 * (Access-Control-Expose-Headers).
 */
function retryAfterSeconds(header: string | null): number | undefined {
  if (!header) return undefined;
  // "0" parses as a date in the past: 0 either way
  const seconds = Number(header) || (Date.parse(header) - Date.now()) / 1000;
  return Number.isNaN(seconds) ? undefined : Math.max(0, Math.ceil(seconds));
}

/**
 * A simple request sent at once, in the task that makes the call, and the fetch function ky is given
 * for it, which answers with that request's response. ky calls fetch only some promise turns later,
 * and what runs before those turns (the rest of load(), mounting the view in the host's `.then`) would
 * otherwise hold the start-up requests back (README, "A fresh visitor without a preflight"). The same
 * URL, headers and body ky builds; ky's timeout and the caller's signal abort it as they would its own.
 */
function sentNow(
  baseUrl: string,
  path: string,
  init: { method: Method; headers: Record<string, string>; body?: string; query?: Record<string, string>; signal?: AbortSignal },
): (request: string | URL | Request) => Promise<Response> {
  const url = `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\//, '')}${init.query ? `?${new URLSearchParams(init.query)}` : ''}`;
  const abort = new AbortController();
  init.signal?.addEventListener('abort', () => abort.abort(init.signal!.reason), { once: true });
  const sent = fetch(new Request(url, { method: init.method.toUpperCase(), headers: init.headers, body: init.body, credentials: 'include', signal: abort.signal }));
  // until ky asks for it, a failure is held here (ky then sees it), not reported as unhandled
  sent.catch(() => undefined);
  return (request) => {
    const { signal } = request as Request;
    if (signal.aborted) abort.abort(signal.reason);
    else signal.addEventListener('abort', () => abort.abort(signal.reason), { once: true });
    return sent;
  };
}

/**
 * The Frontend API client: one ky instance per base URL, the headers of SPEC.md section 7, errors
 * mapped to the catalogue. Process calls use the base URL and id of the current process; session
 * calls the URL from the session configuration.
 */
export class ApiClient {
  readonly #instances = new Map<string, KyInstance>();
  readonly #options: ApiOptions;
  /** the process token sent as X-Corbado-Process-ID */
  processId: string | undefined;
  processBaseUrl: string | undefined;
  sessionBaseUrl: string | undefined;
  /** whether this page has called GET /v2/auth/process without a preferred block (process/preflightWarmUp.ts) */
  resumeUrlUsed = false;
  longSession: () => string | undefined = () => undefined;

  constructor(options: ApiOptions) {
    this.#options = options;
  }

  get projectId(): string {
    return this.#options.projectId;
  }

  #instance(baseUrl: string): KyInstance {
    const prefixUrl = baseUrl.replace(/\/+$/, '');
    let instance = this.#instances.get(prefixUrl);
    if (!instance) {
      instance = ky.create({
        prefixUrl,
        credentials: 'include',
        timeout: this.#options.timeout,
        retry: 0,
        // not JSON.stringify: a legacy page's Array.prototype.toJSON would turn arrays into strings
        stringifyJson: toJson,
      });
      this.#instances.set(prefixUrl, instance);
    }
    return instance;
  }

  async #request<T>(
    baseUrl: string,
    method: Method,
    path: string,
    headers: Record<string, string>,
    options: CallOptions,
  ): Promise<T> {
    // the time zone costs a first Intl initialisation: the start-up requests go without it
    const zone = timezone();
    const simple = options.simple === true;
    const own: Record<keyof typeof SIMPLE_QUERY, string> = {
      'X-Corbado-ProjectID': this.#options.projectId,
      'X-Corbado-SDK': toJson({ name: 'corbado-widget', sdkVersion: VERSION }),
      'X-Corbado-Flags': this.#options.preview ? 'preview' : '',
    };
    const searchParams = { ...options.searchParams };
    for (const [header, value] of Object.entries(own) as [keyof typeof SIMPLE_QUERY, string][]) {
      if (!simple) headers[header] = value;
      else if (value) searchParams[SIMPLE_QUERY[header]] = value;
    }
    if (zone && !simple) headers['X-Corbado-Client-Timezone'] = zone;
    // the widget's language, for the e-mails and SMS the call sends (a CORS-safelisted header: no preflight of its own)
    headers['Accept-Language'] = $language.get();
    if (simple && options.json !== undefined) headers['Content-Type'] = 'text/plain;charset=UTF-8';
    const body = simple && options.json !== undefined ? toJson(options.json) : undefined;
    // none at all rather than an empty set: ky would leave a bare "?", another URL to the preflight cache
    const query = Object.keys(searchParams).length ? searchParams : undefined;
    try {
      const sent = simple ? sentNow(baseUrl, path, { method, headers, body, query, signal: options.signal }) : undefined;
      // ky's part of a simple request (its instance, its Request: a few ms on a loaded machine) waits for a
      // later turn: the request is on the wire, and load()'s next request is not held behind it
      if (sent) await undefined;
      const response = await this.#instance(baseUrl)(path.replace(/^\//, ''), {
        method,
        headers,
        // ky's own Request goes without the body: it is never sent, and its unread body would keep ky's promise open
        ...(sent ? { fetch: sent } : { json: options.json }),
        searchParams: query,
        signal: options.signal,
      });
      if (response.status === 204) return undefined as T;
      const text = await response.text();
      if (!text) throw unhandledBackendError('no_data_in_response');
      return JSON.parse(text) as T;
    } catch (error) {
      if (simple && error instanceof HTTPError && (error.response.status === 400 || error.response.status === 415)) {
        return this.#request<T>(baseUrl, method, path, {}, { ...options, simple: false });
      }
      throw await toCatalogueError(error);
    }
  }

  #process<T = ProcessResponse>(method: 'get' | 'post', path: string, options: CallOptions = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.processId) headers['X-Corbado-Process-ID'] = this.processId;
    return this.#request<T>(this.processBaseUrl ?? this.#options.frontendApiUrl, method, path, headers, options);
  }

  #session<T>(method: Method, path: string, options: CallOptions = {}, bearer = this.longSession()): Promise<T> {
    const headers: Record<string, string> = {};
    if (bearer !== undefined) headers.Authorization = `Bearer ${bearer}`;
    return this.#request<T>(this.sessionBaseUrl ?? this.#options.frontendApiUrl, method, path, headers, options);
  }

  // --- configuration ---------------------------------------------------------------------------

  sessionConfig(signal?: AbortSignal): Promise<SessionConfig> {
    // always the default URL: the answer names the URL of the session calls
    return this.#request(this.#options.frontendApiUrl, 'get', 'v2/session-config', {}, { signal, simple: true });
  }

  // --- auth process ----------------------------------------------------------------------------

  processInit(body: ProcessInitRequest, baseUrl?: string): Promise<ProcessInitResponse> {
    return this.#request(baseUrl ?? this.#options.frontendApiUrl, 'post', 'v2/auth/process/init', {}, { json: body, simple: true });
  }

  getProcess(preferredBlock?: string) {
    if (!preferredBlock) this.resumeUrlUsed = true;
    return this.#process('get', 'v2/auth/process', preferredBlock ? { searchParams: { preferredBlock } } : {});
  }

  completeProcess() {
    return this.#process('post', 'v2/auth/process/complete');
  }

  resetProcess() {
    return this.#process('post', 'v2/auth/process/reset');
  }

  signupInit(identifiers: { type: IdentifierType; identifier: string }[], fullName?: string, signupFields?: SignupFieldAnswer[]) {
    return this.#process('post', 'v2/auth/signup/init', { json: { identifiers, fullName, signupFields } });
  }

  loginInit(identifierValue: string, isPhone: boolean) {
    return this.#process('post', 'v2/auth/login/init', { json: { identifierValue, isPhone } });
  }

  skipBlock() {
    return this.#process('post', 'v2/auth/block/skip');
  }

  /** SPEC §7 names the payload {clientInfo}: what the browser tells, as process/init sends it (web-js 3.5 sends `{}`). */
  passkeyAppendStart(clientInformation: ClientInformation) {
    return this.#process('post', 'v2/auth/passkey/append/start', { json: { clientInformation } });
  }

  passkeyAppendFinish(signedChallenge: string) {
    return this.#process('post', 'v2/auth/passkey/append/finish', { json: { signedChallenge } });
  }

  passkeyLoginStart() {
    return this.#process('post', 'v2/auth/passkey/login/start', { json: {} });
  }

  passkeyLoginFinish(signedChallenge: string) {
    return this.#process('post', 'v2/auth/passkey/login/finish', { json: { signedChallenge } });
  }

  passkeyMediationFinish(signedChallenge: string) {
    return this.#process('post', 'v2/auth/passkey/mediation/finish', { json: { signedChallenge } });
  }

  verifyStart(identifierType: IdentifierType, verificationType: VerificationMethod) {
    return this.#process('post', 'v2/auth/identifier/verify/start', { json: { identifierType, verificationType } });
  }

  verifyFinish(identifierType: IdentifierType, verificationType: VerificationMethod, code: string, isNewDevice: boolean) {
    return this.#process('post', 'v2/auth/identifier/verify/finish', {
      json: { identifierType, verificationType, code, isNewDevice },
    });
  }

  /**
   * An e-mail link's page: `open` as it loads (it changes nothing unless this browser asked for the link),
   * an answer on a click. The process header, if any, is this browser's stored process.
   */
  emailLink(step: 'open' | 'approve' | 'decline' | 'here', process: string, token: string) {
    return this.#process('post', `v2/auth/email-link/${step}`, { json: { process, token } });
  }

  verifyStatus(signal?: AbortSignal) {
    return this.#process('get', 'v2/auth/identifier/verify/status', { signal });
  }

  identifierUpdate(identifierType: IdentifierType, value: string) {
    return this.#process('post', 'v2/auth/identifier/update', { json: { identifierType, value } });
  }

  phoneCollect(phone: string) {
    return this.#process('post', 'v2/auth/phone/collect', { json: { phone } });
  }

  usernameCollect(username: string) {
    return this.#process('post', 'v2/auth/username/collect', { json: { username } });
  }

  socialStart(providerType: SocialProvider, redirectUrl: string, authType: AuthType, signupFields?: SignupFieldAnswer[]) {
    return this.#process('post', 'v2/auth/social/verify/start', { json: { providerType, redirectUrl, authType, signupFields } });
  }

  /** `result`: a round trip begun on another site than the API returns with a result secret that finish needs */
  socialFinish(result?: string) {
    return this.#process('post', 'v2/auth/social/verify/finish', { json: result ? { result } : {} });
  }

  event(eventType: string, challenge?: string) {
    return this.#process<void>('post', 'v2/auth/events', { json: { eventType, challenge } });
  }

  // --- current user (session) -----------------------------------------------------------------

  me(signal?: AbortSignal) {
    return this.#session<MeResponse>('get', 'v2/me', { signal });
  }

  passkeys(signal?: AbortSignal) {
    return this.#session<PasskeyListResponse>('get', 'v2/me/passkeys', { signal });
  }

  mePasskeyAppendStart(clientInformation: ClientInformation) {
    return this.#session<PasskeyAppendStartResponse>('post', 'v2/me/passkeys/append/start', { json: { clientInformation } });
  }

  mePasskeyAppendFinish(attestationResponse: string, clientInformation: ClientInformation) {
    return this.#session<unknown>('post', 'v2/me/passkeys/append/finish', {
      json: { attestationResponse, clientInformation },
    });
  }

  deletePasskey(id: string) {
    return this.#session<{ id: string }>('delete', `v2/me/passkeys/${encodeURIComponent(id)}`);
  }

  refresh() {
    // always authorised with the long session, even when none is stored (the server treats it as absent);
    // `rotate`: a stored long session is replaced by the one the answer carries
    return this.#session<Partial<RefreshResponse>>('post', 'v2/me/refresh', { json: { rotate: true } }, this.longSession() ?? '');
  }

  /** The user's sessions: `get` lists them ('') or checks this one ('current', 204); `delete` ends one (its id) or every other (''). */
  sessions<T = UserSessionsResponse>(method: 'get' | 'delete', id = '') {
    return this.#session<T>(method, `v2/me/sessions${id && `/${encodeURIComponent(id)}`}`);
  }

  logout() {
    return this.#session<void>('post', 'v2/me/logout');
  }

  userDetailsConfig() {
    return this.#session<UserDetailsConfig>('get', 'v2/user-details-config');
  }

  /**
   * A fresh proof for a recent log-in: '' reads the proofs the user can give (GET /v2/me/reauth), a
   * step posts, e.g. `reauth('code/start', { identifierID })`.
   */
  reauth<T = GenericResponse>(step: '' | `${'passkey' | 'code'}/${'start' | 'finish'}`, json?: object) {
    return this.#session<T>(step ? 'post' : 'get', `v2/me/reauth${step && '/'}${step}`, { json });
  }

  /** One of the account calls, e.g. `account('patch v2/me', { fullName })`. */
  account<K extends keyof AccountCalls>(call: K, json?: AccountCalls[K]) {
    const [method, path] = call.split(' ') as [Method, string];
    return this.#session<GenericResponse>(method, path, { json });
  }
}

let zone: string | undefined;
let zonePending = false;

/** The IANA time zone, read once off the critical path (a timer after the first call). */
function timezone(): string | undefined {
  if (zone === undefined && !zonePending) {
    zonePending = true;
    setTimeout(() => {
      try {
        zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      } catch {
        zone = '';
      }
    }, 0);
  }
  return zone || undefined;
}

