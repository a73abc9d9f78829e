// Every local-storage key the widget uses, in one place (SPEC.md section 3).
import { toJson } from './toJson';

export interface StoredProcess {
  id: string;
  /** seconds since epoch */
  expiresAt: number;
  frontendApiUrl: string;
  /** the block the server last answered for it (process/startUp.ts: a resume asks for no other block needlessly) */
  block?: string;
}

export const storageKeys = {
  authProcess: (projectId: string) => `cbo_auth_process-${projectId}`,
  clientHandle: 'cbo_client_handle',
  passkeyAppendShown: 'cbo_passkey_append_shown',
  shortSession: 'cbo_short_session',
  longSession: 'cbo_long_session',
  /** where this browser keeps the long session of its sign-in (session/session.ts: SessionPersistence) */
  sessionPersistence: 'cbo_session_persistence',
  socialLogin: 'socialLogin',
  /** the account last logged in, per project (process/lastUser.ts) */
  lastUser: (projectId: string) => `cbo_last_user-${projectId}`,
  /** the browser's passkey capability answers of the last visit, so process/init need not wait for them */
  clientCapabilities: 'cbo_client_capabilities',
} as const;

function store(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    // storage can be disabled (privacy settings, sandboxed frames): the widget then keeps nothing
    return undefined;
  }
}

export function readItem(key: string): string | undefined {
  try {
    return store()?.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

export function writeItem(key: string, value: string | undefined): void {
  try {
    if (value === undefined) store()?.removeItem(key);
    else store()?.setItem(key, value);
  } catch {
    // quota or privacy mode: nothing to keep, nothing to break
  }
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function readStoredProcess(projectId: string): StoredProcess | undefined {
  const raw = readItem(storageKeys.authProcess(projectId));
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as Partial<StoredProcess>;
    if (typeof value.id !== 'string' || typeof value.expiresAt !== 'number') return undefined;
    return {
      id: value.id,
      expiresAt: value.expiresAt,
      frontendApiUrl: value.frontendApiUrl ?? '',
      ...(typeof value.block === 'string' ? { block: value.block } : {}),
    };
  } catch {
    return undefined;
  }
}

/** A stored process is valid only while its expiry lies in the future. */
export function isProcessValid(process: StoredProcess | undefined, now = nowSeconds()): process is StoredProcess {
  return !!process && process.expiresAt > now;
}

export function writeStoredProcess(projectId: string, process: StoredProcess | undefined): void {
  writeItem(storageKeys.authProcess(projectId), process && toJson(process));
}
