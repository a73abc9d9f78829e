// The events a project's webhook endpoints receive, and what each one carries (server/README.md,
// "Webhooks", shows every one with an example). The body of a delivery is `{type, timestamp, data}`, as
// the Standard Webhooks specification suggests; `data` always names the project and the user.
import type { IdentifierType, SocialProvider } from '../config/projectConfig.ts';
import type { CredentialRecord } from '../store/CredentialsRepo.ts';
import type { IdentifierRecord, UserStatus } from '../store/UsersRepo.ts';

export const EVENT_TYPES = [
  'user.created',
  'user.deleted',
  'user.logged_in',
  'identifier.added',
  'identifier.verified',
  'identifier.removed',
  'passkey.added',
  'passkey.removed',
  'user.updated',
  'social_account.linked',
  'social_account.unlinked',
  'session.ended',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** How a log-in was proven: the proof that completed it. `unknown` only for a log-in under way across an upgrade. */
export type LoginMethod = 'passkey' | 'email-otp' | 'email-link' | 'phone-otp' | `social:${SocialProvider}` | 'unknown';

/** An identifier as events show it: the Backend API's identifierID, type, value and status. */
export interface IdentifierData {
  id: string;
  type: IdentifierType;
  value: string;
  status: 'verified' | 'pending';
}

/** A passkey as events show it: `id` is the Backend API's and `/v2/me/passkeys`' `cre-…`, `credentialId` WebAuthn's. */
export interface PasskeyData {
  id: string;
  credentialId: string;
  aaguid: string;
  status: 'active' | 'pending';
}

/** Where an account came from: a sign-up in the widget, the host's Backend API, or `admin users import`. */
export type UserSource = 'signup' | 'backend-api' | 'import';

/**
 * Why a session ended: `logout` (the person logged out in it), `ended-by-user` (the person ended it
 * from another session, on the account page), `revoked-by-host` (the Backend API's long session
 * update), `user-disabled` (the host disabled the user), `reuse` (an old refresh token came back: the
 * whole session is ended, as it may be stolen), `takeover` (someone proved the address of an account
 * that had no verified identifier: what was issued before is ended), `key-rotation` (the project's
 * signing key was revoked, `admin keys rotate --revoke-previous`: every live session of the project ends).
 */
export type SessionEndReason = 'logout' | 'ended-by-user' | 'revoked-by-host' | 'user-disabled' | 'reuse' | 'takeover' | 'key-rotation';

/** What `data` holds for each type, besides `projectId`. */
export interface EventData {
  /** the whole new account: later events tell only what changes afterwards */
  'user.created': {
    userId: string;
    fullName: string;
    identifiers: IdentifierData[];
    passkeys: PasskeyData[];
    socialProviders: SocialProvider[];
    source: UserSource;
  };
  /** the user's name or status changed: both as they are now */
  'user.updated': { userId: string; fullName: string; status: UserStatus };
  /** a provider account was linked to the user (not at sign-up: that is in user.created) */
  'social_account.linked': { userId: string; provider: SocialProvider };
  'social_account.unlinked': { userId: string; provider: SocialProvider };
  /** `sessionId`: the long session's `ses-…` (the Backend API's longSessionID) */
  'session.ended': { userId: string; sessionId: string; reason: SessionEndReason };
  /** identifiers, passkeys, sessions and provider accounts went with it (no events of their own) */
  'user.deleted': { userId: string };
  /** `identifier`: what the user logged in with (the session's `orig`) */
  'user.logged_in': { userId: string; method: LoginMethod; identifier: { type: IdentifierType; value: string }; passkeyId?: string };
  'identifier.added': { userId: string; identifier: IdentifierData };
  'identifier.verified': { userId: string; identifier: IdentifierData };
  /** `identifier` as it was */
  'identifier.removed': { userId: string; identifier: IdentifierData };
  'passkey.added': { userId: string; passkey: PasskeyData };
  /** `passkey` as it was */
  'passkey.removed': { userId: string; passkey: PasskeyData };
}

/** The body of a delivery. */
export interface WebhookEvent<T extends EventType = EventType> {
  type: T;
  /** when it happened, RFC 3339 in UTC */
  timestamp: string;
  data: { projectId: string } & EventData[T];
}

export function identifierData(identifier: Pick<IdentifierRecord, 'id' | 'type' | 'value' | 'status'>): IdentifierData {
  return { id: identifier.id, type: identifier.type, value: identifier.value, status: identifier.status };
}

export function passkeyData(credential: Pick<CredentialRecord, 'id' | 'credentialId' | 'aaguid' | 'status'>): PasskeyData {
  return { id: credential.id, credentialId: credential.credentialId, aaguid: credential.aaguid, status: credential.status };
}

/** The event types of a comma-separated list (the admin command's `--events`); throws naming the unknown ones. */
export function parseEventTypes(list: string): EventType[] {
  const wanted = list.split(',').map((t) => t.trim()).filter(Boolean);
  const unknown = wanted.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (wanted.length === 0 || unknown.length > 0) {
    throw new Error(`--events takes a comma-separated list of ${EVENT_TYPES.join(', ')}${unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''}`);
  }
  return [...new Set(wanted)] as EventType[];
}
