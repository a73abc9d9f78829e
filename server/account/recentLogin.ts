// What cannot be undone (deleting the account, removing a login identifier, changing the primary
// address, deleting the last passkey) needs a recent log-in, so that a long session left open on a
// shared computer, or stolen, is not enough on its own to lock the owner out.
import { ApiError } from '../ApiError.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { SessionRecord } from '../store/SessionsRepo.ts';

/**
 * When the person behind this long session last proved who they are: its log-in (the session's
 * creation; a refresh derives short sessions from it and changes nothing) or a later fresh proof.
 */
export function lastAuthenticatedAt(session: SessionRecord): number {
  return Math.max(session.createdAt, session.reauthenticatedAt ?? 0);
}

/** 403 recent_login_required unless the last proof lies within the project's window. */
export function requireRecentLogin(project: ProjectConfig, session: SessionRecord, now: number): void {
  if (now - lastAuthenticatedAt(session) <= project.recentLoginSeconds * 1000) return;
  throw new ApiError(
    403,
    'recent_login_required',
    'Forbidden',
    `This needs a log-in within the last ${project.recentLoginSeconds} seconds; confirm it is you at /v2/me/reauth`,
  );
}
