// What each operator role may do, as the console's buttons show it (the server enforces the same on
// every call: a hidden button is not a permission). Issue 33: owner (every project, operators,
// settings), admin (their projects: everything there), support (their projects: read, end sessions,
// resend a verification, disable/enable; never delete, never secrets, keys, webhooks or settings).
import type { Role } from './api';

export type Action =
  | 'endSessions'
  | 'sendVerification'
  | 'disableUser'
  | 'deleteUser'
  | 'removePasskey'
  | 'removeIdentifier'
  | 'editSettings'
  | 'manageSecrets'
  | 'rotateKeys'
  | 'manageWebhooks'
  | 'redeliver'
  | 'manageOperators';

const SUPPORT: ReadonlySet<Action> = new Set(['endSessions', 'sendVerification', 'disableUser']);

export function may(role: Role, action: Action): boolean {
  if (action === 'manageOperators') return role === 'owner';
  if (role === 'owner' || role === 'admin') return true;
  return SUPPORT.has(action);
}
