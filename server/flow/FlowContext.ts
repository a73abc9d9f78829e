// What every flow module works with: the dependencies, the project, the locked process and what the
// request tells about its origin. One context per request; the engine creates it inside the process
// transaction, so nothing else changes the process while a module works on it.
import { logsIn, type IdentifierType, type Language, type ProjectConfig } from '../config/projectConfig.ts';
import type { AuditEvent } from '../audit/AuditTrail.ts';
import type { EventRecorder } from '../events/WebhookEvents.ts';
import type { RateLimiter } from '../limits/RateLimiter.ts';
import type { Logger, Messenger } from '../senders/Messenger.ts';
import type { CreatedUser, Sessions } from '../session/Sessions.ts';
import type { SocialProviders } from '../social/SocialProviders.ts';
import type { ProcessRecord } from '../store/ProcessesRepo.ts';
import type { Store } from '../store/Store.ts';
import type { IdentifierRecord } from '../store/UsersRepo.ts';
import type { BlockBody, BlockExtras, ProcessResponse, RenderContext } from './blockBodies.ts';
import { canonicalIdentifier, normalizedIdentifier } from './identifierRules.ts';
import type { ProcessState } from './processState.ts';
import { requestError, type RequestError } from './requestErrors.ts';

export interface FlowDeps {
  store: Store;
  messenger: Messenger;
  sessions: Sessions;
  limiter: RateLimiter;
  now: () => number;
  /** HMAC key for one-time codes and link tokens */
  secretKey: string;
  /** OAuth providers (the local simulator unless configured otherwise) */
  social: SocialProviders;
  /** webhook events, recorded in the transaction of the change */
  events: EventRecorder;
  log?: Logger;
}

/** One request on a process, as the HTTP layer hands it over. */
export interface FlowRequest {
  project: ProjectConfig;
  /** the X-Corbado-Process-ID token */
  processToken: string;
  /** this API's public URL: the issuer of sessions and the base of e-mail links */
  frontendApiUrl: string;
  userAgent: string | undefined;
  /** the client's address, for the per-address limits */
  clientIp: string;
  /** the page's origin (the Origin header, one of the project's allowed origins), when the browser sent it */
  origin?: string;
  /** the language of the visitor's e-mails and SMS (Accept-Language, else the project's) */
  language: Language;
  /** the process was named by X-Corbado-Temp-Process-ID: the tab an e-mail link opened (a new device) */
  fromEmailLink?: boolean;
  /** the browser cookie (BROWSER_COOKIE): a process started with it knows its e-mail link's page by it */
  browserCookie?: string;
  /** the page is on another site than this API served over https (http/crossSite.ts): its cookies may be refused */
  crossSite?: boolean;
}

export interface FlowOutcome {
  response: ProcessResponse;
  /** set when the completed block was delivered: the long session for the HttpOnly cookie */
  longSession?: { token: string; maxAgeSeconds: number };
}

export class FlowContext {
  /** with `deferSaves`: the state as the last save() left it (serialised), written by flush() */
  #unsaved: string | undefined;
  #deferred = false;
  /**
   * The user this call's sign-up created, as inserted (completion.ts): a session started for it in the
   * same call needs no read of it. Set once every row is in; a savepoint rolled back leaves it unset.
   */
  createdUser: CreatedUser | undefined;

  constructor(
    readonly deps: FlowDeps,
    readonly request: FlowRequest,
    public process: ProcessRecord,
  ) {}

  /**
   * From now on save() only keeps a copy of the state, and flush() writes the last one: the engine's
   * action may save two or three times (the user created, the session handed out), and the process is
   * locked until its commit, so one write at the end of the action stores the same thing in one
   * statement instead of several. An action that throws rolls its transaction back, saves or not.
   */
  deferSaves(): void {
    this.#deferred = true;
  }

  /**
   * Writes the state the last deferred save() kept, if any, at the transaction's commit: the engine
   * flushes as its action's transaction ends, and nothing reads the process's row after that in it (on
   * PostgreSQL the write goes in one statement with the transaction's audit records: one round trip).
   */
  flush(): void {
    const state = this.#unsaved;
    this.#unsaved = undefined;
    if (state !== undefined) this.store.processes.saveStateTextAtCommit(this.process.id, state);
  }

  get project(): ProjectConfig {
    return this.request.project;
  }

  get state(): ProcessState {
    return this.process.state;
  }

  get store(): Store {
    return this.deps.store;
  }

  now(): number {
    return this.deps.now();
  }

  /** An in-band business error in the project's language. */
  error(code: string, type?: IdentifierType): RequestError {
    return requestError(code, this.project.language, type);
  }

  /**
   * A social sign-in error on an init block: data.error (CONTRACT §8: the client then skips finish) and
   * the same error as blockBody.error, which is what the client shows as a popup.
   */
  socialError(code: string): BlockExtras {
    const error = this.error(code);
    return { dataError: error, error };
  }

  render(): RenderContext {
    return { project: this.project, state: this.state, nowMs: this.now() };
  }

  /** Records an event of this process in the audit trail (its user, once known; the process by its id). */
  audit(event: AuditEvent): Promise<void> {
    const userId = event.userId ?? this.state.userId ?? undefined;
    return this.deps.events.audit(this.project.id, { ...(userId ? { userId } : {}), ...event, details: { process: this.process.id, ...event.details } });
  }

  /** How a log-in or sign-up of this process was proven, as the audit trail and the figures name it. */
  proofMethod(): string {
    const method = this.state.loginProof?.method ?? 'unknown';
    return method === 'passkey' && this.state.passkeyTried === 'autofill' ? 'passkey-autofill' : method;
  }

  save(): Promise<void> {
    if (!this.#deferred) return this.store.processes.saveState(this.process.id, this.state);
    // serialised now, as it was written before: what the action changes after its last save() is not stored
    this.#unsaved = JSON.stringify(this.state);
    return Promise.resolve();
  }

  wrap(blockBody: BlockBody): ProcessResponse {
    return {
      blockBody,
      common: {
        appName: this.project.appName,
        frontendApiUrl: this.request.frontendApiUrl,
        hideBadge: this.project.hideBadge,
        environment: this.project.environment,
      },
    };
  }

  /** Format and availability of an identifier value (taken only by a verified holder); undefined when it can be used. */
  async identifierProblem(type: IdentifierType, value: string): Promise<{ error: RequestError } | undefined> {
    const canonical = canonicalIdentifier(type, value);
    if (!canonical) return { error: this.error('identifier_invalid_format', type) };
    if (await this.store.users.findVerifiedIdentifier(this.project.id, type, normalizedIdentifier(type, canonical))) {
      return { error: this.error('identifier_already_in_use', type) };
    }
    return undefined;
  }

  /** The identifier a log-in counts as (JWT `orig`) where none was typed in: the first of a login type, else the first. */
  loginIdentifierOf(identifiers: IdentifierRecord[]): IdentifierRecord | undefined {
    return identifiers.find((i) => logsIn(this.project, i.type)) ?? identifiers[0];
  }

  /** Log-in: the user's identifiers become the process's; the one typed in is the one codes go to. */
  async loadUser(userId: string, orig: { type: IdentifierType; value: string }): Promise<void> {
    const s = this.state;
    s.userId = userId;
    s.orig = orig;
    s.identifiers = {};
    for (const identifier of await this.store.users.listIdentifiers(userId)) {
      if (identifier.type === orig.type && identifier.value !== orig.value) continue;
      s.identifiers[identifier.type] ??= { value: identifier.value, verified: identifier.status === 'verified' };
    }
  }
}
