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

  async start(project: ProjectConfig, userId: string, orig: string, issuer: string, nowMs: number): Promise<StartedSession> {
    const longSession = newSecretToken();
    await this.store.sessions.insert({
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
      shortSession: await this.shortSession(project, userId, orig, issuer, nowMs),
      longSession,
      longSessionMaxAgeSeconds: project.longSessionLifetimeSeconds,
    };
  }

  async shortSession(project: ProjectConfig, userId: string, orig: string, issuer: string, nowMs: number): Promise<string> {
    const user = await this.store.users.get(userId);
    const identifiers = await this.store.users.listIdentifiers(userId);
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
  async find(project: ProjectConfig, token: string, nowMs: number): Promise<SessionRecord | undefined> {
    if (!token) return undefined;
    const session = await this.store.sessions.findByTokenHash(sha256Hex(token));
    if (!session || session.projectId !== project.id || session.revokedAt !== null || session.expiresAt <= nowMs) return undefined;
    return (await this.store.users.get(session.userId)) ? session : undefined;
  }

  async end(session: SessionRecord, nowMs: number): Promise<void> {
    await this.store.sessions.revoke(session.id, nowMs);
  }
}
