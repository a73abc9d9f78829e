// Long sessions (random tokens, stored hashed, rotated at each refresh) and the short-session JWTs
// derived from them.
//
// Rotation with reuse detection (OAuth 2.0 Security Best Current Practice, refresh-token rotation):
// each refresh replaces the long session's value and retires the one presented; a retired value
// presented again means that two parties hold the chain (the device and a copy of it), so the whole
// session ends. The successor of a value is HMAC(server secret, value): a refresh that presents the
// immediate predecessor within ROTATION_GRACE_MS (two tabs that refreshed at once, an answer lost on
// the way) gets the very value the first refresh handed out, rather than a second one; the tabs cannot
// end up holding different values, and nothing about the successor needs storing.
import type { AuditEvent, AuditTrail } from '../audit/AuditTrail.ts';
import { createHmac } from 'node:crypto';
import { ApiError } from '../ApiError.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { SessionEndReason } from '../events/eventTypes.ts';
import { recordSessionsEnded, type EventRecorder } from '../events/WebhookEvents.ts';
import { userAgentSource } from '../flow/userAgentSource.ts';
import { newId, newSecretToken, sha256Hex } from '../randomValues.ts';
import type { SessionRecord } from '../store/SessionsRepo.ts';
import type { Store } from '../store/Store.ts';
import type { IdentifierRecord, UserRecord } from '../store/UsersRepo.ts';
import type { KeyRing } from './KeyRing.ts';

/**
 * A user the caller created in the transaction that starts its first session, as it inserted it: the
 * user and its identifiers (at most one of each type, so their order is the listed one). Nothing else
 * sees the user before the commit, so these are what a read would return.
 */
export interface CreatedUser {
  user: UserRecord;
  identifiers: readonly Pick<IdentifierRecord, 'type' | 'value' | 'status'>[];
}

export const LONG_SESSION_COOKIE = 'cbo_long_session';

/** How long the value a rotation replaced still counts as the session's (concurrent refreshes, a lost answer). */
export const ROTATION_GRACE_MS = 60_000;

export interface StartedSession {
  /** the long session's id (sessions.id), which stays through its rotations */
  id: string;
  shortSession: string;
  longSession: string;
  longSessionMaxAgeSeconds: number;
}

/** A long session a request presented, and the value it holds now. */
export interface PresentedSession {
  session: SessionRecord;
  /** the session's current value: the one presented, or its successor when the immediate predecessor was presented within the grace */
  token: string;
  /** the immediate predecessor was presented */
  predecessor: boolean;
}

export interface Refreshed {
  shortSession: string;
  /** the long session's new value, when it rotated: the client must keep it */
  longSession?: { token: string; maxAgeSeconds: number };
}

export class Sessions {
  constructor(
    private readonly store: Store,
    private readonly keys: KeyRing,
    /** the server secret successors are derived with */
    private readonly rotationSecret: string,
    /** webhooks: `session.ended` when a session is ended here (a logout, a reuse) */
    private readonly events: EventRecorder,
    /** told when a retired value came back and its session was ended */
    private readonly onReuse: (session: SessionRecord) => void = () => {},
    /** the audit trail: sessions created, rotated, reused and ended are recorded there */
    private readonly trail?: Pick<AuditTrail, 'record'>,
  ) {}

  /** Records a session's event in the audit trail (in the caller's transaction). */
  private async audit(session: Pick<SessionRecord, 'id' | 'projectId' | 'userId'>, event: string, more: Omit<AuditEvent, 'event'> = {}): Promise<void> {
    await this.trail?.record(session.projectId, { event, userId: session.userId, target: `session:${session.id}`, ...more });
  }

  /**
   * Ends a session and tells `session.ended` with the reason (webhook and trail), in one transaction
   * with what `also` records (nothing when it had ended already).
   */
  private async endWith(session: SessionRecord, reason: SessionEndReason, nowMs: number, also?: () => Promise<void>): Promise<void> {
    await this.store.transaction(async () => {
      if (await this.store.sessions.revoke(session.id, nowMs)) await recordSessionsEnded(this.events, session.projectId, session.userId, [session.id], reason);
      await also?.();
    });
  }

  /**
   * A new long session and its first short session. `issuer`: this API's public URL (PUBLIC_URL, else
   * the origin the request came to); `userAgent` names the browser and OS in the user's session list.
   */
  async start(project: ProjectConfig, userId: string, orig: string, issuer: string, nowMs: number, userAgent?: string, created?: CreatedUser): Promise<StartedSession> {
    // the one place a session is issued: a user the host disabled (Backend API) gets none, whatever the way in
    const user = created?.user ?? (await this.store.users.get(userId));
    if (user?.status === 'disabled') throw new ApiError(403, 'user_disabled', 'Forbidden', 'This account is disabled');
    const longSession = newSecretToken();
    const { browser, os } = userAgentSource(userAgent);
    // a user created in this transaction has no session yet, so none of its retired values to prune
    if (!created) await this.store.sessions.pruneRetired(userId, nowMs);
    const id = newId('ses');
    const session = {
      id,
      tokenHash: sha256Hex(longSession),
      projectId: project.id,
      userId,
      orig,
      createdAt: nowMs,
      expiresAt: nowMs + project.longSessionLifetimeSeconds * 1000,
      revokedAt: null,
      browser,
      os,
    };
    // the first session of a user created in this transaction: nothing in it reads the user's sessions
    // after this, so the row goes with the transaction's last writes (on PostgreSQL one statement with
    // the process's state and the audit records)
    if (created) this.store.sessions.insertAtCommit(session);
    else await this.store.sessions.insert(session);
    await this.audit({ id, projectId: project.id, userId }, 'session.created');
    return {
      id,
      shortSession: await this.shortSession(project, userId, orig, issuer, nowMs, user, created?.identifiers),
      longSession,
      longSessionMaxAgeSeconds: project.longSessionLifetimeSeconds,
    };
  }

  /**
   * The short session, signed with the project's key: `iss` is this server (one issuer for all its
   * projects, an empty path, as OpenID discovery and @corbado/node-sdk expect), `aud` the project.
   * `email` and `phone_number` are only ever a verified identifier (the primary one when it is
   * verified), with `email_verified` / `phone_number_verified` as OpenID Connect names them: a backend
   * may take them as proven. `orig` is what the user logged in with and `name` is display text; neither
   * proves anything.
   */
  async shortSession(
    project: ProjectConfig,
    userId: string,
    orig: string,
    issuer: string,
    nowMs: number,
    read?: UserRecord,
    identifiers?: CreatedUser['identifiers'],
  ): Promise<string> {
    // `read`: the user as the caller read it in the same transaction (start), not read a second time;
    // `identifiers`: those of a user created in this transaction, as its creation inserted them
    const user = read ?? (await this.store.users.get(userId));
    // listed primary first within a type, so the first verified one is the primary when it is verified
    const verified = (identifiers ?? (await this.store.users.listIdentifiers(userId))).filter((i) => i.status === 'verified');
    const email = verified.find((i) => i.type === 'email')?.value;
    const phone = verified.find((i) => i.type === 'phone')?.value;
    const iat = Math.floor(nowMs / 1000);
    return this.keys.sign(project.id, {
      iss: issuer,
      aud: project.id,
      sub: userId,
      iat,
      nbf: iat,
      exp: iat + project.shortSessionLifetimeSeconds,
      jti: newId('jti'),
      version: 2,
      orig,
      name: user?.fullName || orig,
      ...(email ? { email, email_verified: true } : {}),
      ...(phone ? { phone_number: phone, phone_number_verified: true } : {}),
    });
  }

  /**
   * The live session a long-session value belongs to, in this project. A value its session retired
   * counts only as the immediate predecessor within the grace; any other retired value ends the session
   * (with `detectReuse`; a second value a request carries beside the one it is authorised by does not).
   */
  async presented(project: ProjectConfig, token: string, nowMs: number, detectReuse = true): Promise<PresentedSession | undefined> {
    if (!token) return undefined;
    const current = await this.store.sessions.findByTokenHash(sha256Hex(token));
    if (current) return (await this.#live(project, current, nowMs)) ? { session: current, token, predecessor: false } : undefined;
    const retired = await this.store.sessions.findRetired(sha256Hex(token));
    const session = retired && (await this.store.sessions.get(retired.sessionId));
    if (!retired || !session || !(await this.#live(project, session, nowMs))) return undefined;
    const successor = this.#successor(token);
    if (sha256Hex(successor) === session.tokenHash && nowMs - retired.retiredAt <= ROTATION_GRACE_MS) return { session, token: successor, predecessor: true };
    if (detectReuse) {
      await this.endWith(session, 'reuse', nowMs, () => this.audit(session, 'session.reuse_detected', { outcome: 'refused', reason: 'reuse_of_rotated_session' }));
      this.onReuse(session);
    }
    return undefined;
  }

  /**
   * POST /v2/me/refresh: a short session, and with `rotate` the long session's next value (the
   * predecessor within the grace gets the value its session holds now). Without `rotate` (a client that
   * keeps its long session itself and would not store a new one) the value stays.
   */
  async refresh(project: ProjectConfig, presented: PresentedSession, rotate: boolean, issuer: string, nowMs: number): Promise<Refreshed | undefined> {
    const { session } = presented;
    let token: string | undefined;
    if (!rotate || presented.predecessor) {
      await this.store.sessions.touch(session.id, nowMs);
      if (rotate) token = presented.token;
    } else {
      const next = this.#successor(presented.token);
      // a concurrent refresh that rotated first handed out the same successor; a session ended meanwhile has none
      if (await this.store.sessions.rotate(session.id, sha256Hex(presented.token), sha256Hex(next), nowMs)) {
        token = next;
        await this.audit(session, 'session.rotated');
      } else if (await this.presented(project, next, nowMs, false)) {
        token = next;
      } else return undefined;
    }
    return {
      shortSession: await this.shortSession(project, session.userId, session.orig, issuer, nowMs),
      ...(token ? { longSession: { token, maxAgeSeconds: Math.max(0, Math.floor((session.expiresAt - nowMs) / 1000)) } } : {}),
    };
  }

  /** The person logged out in this session. */
  async end(session: SessionRecord, nowMs: number): Promise<void> {
    await this.endWith(session, 'logout', nowMs);
  }

  async #live(project: ProjectConfig, session: SessionRecord, nowMs: number): Promise<boolean> {
    if (session.projectId !== project.id || session.revokedAt !== null || session.expiresAt <= nowMs) return false;
    // a user the host disabled (Backend API) has no live session
    return (await this.store.users.get(session.userId))?.status === 'active';
  }

  #successor(token: string): string {
    return createHmac('sha256', this.rotationSecret).update(`long-session-rotation:${token}`).digest('base64url');
  }
}
