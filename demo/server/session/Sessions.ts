// Long sessions (random tokens, stored hashed) and the short-session JWTs derived from them.
import type { ProjectConfig } from '../config/projectConfig.ts';
import { newId, newSecretToken, sha256Hex } from '../randomValues.ts';
import type { SessionRecord } from '../store/SessionsRepo.ts';
import type { Store } from '../store/Store.ts';
import type { TokenSigner } from './TokenSigner.ts';

export const LONG_SESSION_COOKIE = 'cbo_long_session';

export interface StartedSession {
  shortSession: string;
  longSession: string;
  longSessionMaxAgeSeconds: number;
}

export class Sessions {
  constructor(
    private readonly store: Store,
    private readonly signer: TokenSigner,
  ) {}

  start(project: ProjectConfig, userId: string, orig: string, issuer: string, nowMs: number): StartedSession {
    const longSession = newSecretToken();
    this.store.sessions.insert({
      id: newId('ses'),
      tokenHash: sha256Hex(longSession),
      projectId: project.id,
      userId,
      orig,
      createdAt: nowMs,
      expiresAt: nowMs + project.longSessionLifetimeSeconds * 1000,
      revokedAt: null,
    });
    return {
      shortSession: this.shortSession(project, userId, orig, issuer, nowMs),
      longSession,
      longSessionMaxAgeSeconds: project.longSessionLifetimeSeconds,
    };
  }

  shortSession(project: ProjectConfig, userId: string, orig: string, issuer: string, nowMs: number): string {
    const user = this.store.users.get(userId);
    const identifiers = this.store.users.listIdentifiers(userId);
    const iat = Math.floor(nowMs / 1000);
    return this.signer.sign({
      iss: issuer,
      sub: userId,
      iat,
      nbf: iat,
      exp: iat + project.shortSessionLifetimeSeconds,
      jti: newId('jti'),
      version: 2,
      orig,
      name: user?.fullName || orig,
      email: identifiers.find((i) => i.type === 'email')?.value,
      phone_number: identifiers.find((i) => i.type === 'phone')?.value,
    });
  }

  /** The live session a long-session token belongs to, in this project. */
  find(project: ProjectConfig, token: string, nowMs: number): SessionRecord | undefined {
    if (!token) return undefined;
    const session = this.store.sessions.findByTokenHash(sha256Hex(token));
    if (!session || session.projectId !== project.id || session.revokedAt !== null || session.expiresAt <= nowMs) return undefined;
    return this.store.users.get(session.userId) ? session : undefined;
  }

  end(session: SessionRecord, nowMs: number): void {
    this.store.sessions.revoke(session.id, nowMs);
  }
}
