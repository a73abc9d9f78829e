// Long sessions (random tokens, stored hashed) and the short-session JWTs derived from them.
import { ApiError } from '../ApiError.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import { newId, newSecretToken, sha256Hex } from '../randomValues.ts';
import type { SessionRecord } from '../store/SessionsRepo.ts';
import type { Store } from '../store/Store.ts';
import type { TokenSigner } from './TokenSigner.ts';

export const LONG_SESSION_COOKIE = 'cbo_long_session';

/**
 * The issuer of a project's short sessions: `<frontendApiUrl>/projects/<projectId>`. It names the
 * project, so a backend that checks `iss` alone already refuses another project's token (Corbado's own
 * does the same with a subdomain per project, which a single self-hosted server cannot count on). It is
 * a URL this API answers under: the project's keys are at `<issuer>/.well-known/jwks.json`, where the
 * OpenID convention looks for an issuer's keys.
 */
export function projectIssuer(frontendApiUrl: string, projectId: string): string {
  return `${frontendApiUrl.replace(/\/+$/, '')}/projects/${projectId}`;
}

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

  /** `frontendApiUrl`: this API's public URL, the base of the project's issuer */
  async start(project: ProjectConfig, userId: string, orig: string, frontendApiUrl: string, nowMs: number): Promise<StartedSession> {
    // the one place a session is issued: a user the host disabled (Backend API) gets none, whatever the way in
    if ((await this.store.users.get(userId))?.status === 'disabled') throw new ApiError(403, 'user_disabled', 'Forbidden', 'This account is disabled');
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
      shortSession: await this.shortSession(project, userId, orig, frontendApiUrl, nowMs),
      longSession,
      longSessionMaxAgeSeconds: project.longSessionLifetimeSeconds,
    };
  }

  /**
   * The short session: `iss` and `aud` name the project. `email` and `phone_number` are only ever a
   * verified identifier (the primary one when it is verified), with `email_verified` /
   * `phone_number_verified` as OpenID Connect names them: a backend may take them as proven. `orig` is
   * what the user logged in with and `name` is display text; neither proves anything.
   */
  async shortSession(project: ProjectConfig, userId: string, orig: string, frontendApiUrl: string, nowMs: number): Promise<string> {
    const user = await this.store.users.get(userId);
    // listed primary first within a type, so the first verified one is the primary when it is verified
    const verified = (await this.store.users.listIdentifiers(userId)).filter((i) => i.status === 'verified');
    const email = verified.find((i) => i.type === 'email')?.value;
    const phone = verified.find((i) => i.type === 'phone')?.value;
    const iat = Math.floor(nowMs / 1000);
    return this.signer.sign({
      iss: projectIssuer(frontendApiUrl, project.id),
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

  /** The live session a long-session token belongs to, in this project. */
  async find(project: ProjectConfig, token: string, nowMs: number): Promise<SessionRecord | undefined> {
    if (!token) return undefined;
    const session = await this.store.sessions.findByTokenHash(sha256Hex(token));
    if (!session || session.projectId !== project.id || session.revokedAt !== null || session.expiresAt <= nowMs) return undefined;
    return (await this.store.users.get(session.userId))?.status === 'active' ? session : undefined;
  }

  async end(session: SessionRecord, nowMs: number): Promise<void> {
    await this.store.sessions.revoke(session.id, nowMs);
  }
}
