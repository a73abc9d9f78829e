// What each operator role may do in the console: one table, read by the one middleware every console
// route goes through (consoleApp.ts `allow`). A project the operator may not see answers 404 on every
// route, before the role is looked at, so that no answer tells it exists.
import type { OperatorRecord, OperatorRole } from '../store/OperatorsRepo.ts';

export type Permission =
  | 'project.read'
  | 'sessions.end'
  | 'users.status'
  | 'identifiers.verify'
  | 'users.delete'
  | 'passkeys.delete'
  | 'identifiers.delete'
  | 'settings.read'
  | 'settings.write'
  | 'secrets.read'
  | 'secrets.write'
  | 'keys.read'
  | 'keys.rotate'
  | 'webhooks.read'
  | 'webhooks.write'
  | 'webhooks.status'
  | 'deliveries.redeliver'
  | 'operators';

const ALL: readonly OperatorRole[] = ['owner', 'admin', 'support'];
const ADMINS: readonly OperatorRole[] = ['owner', 'admin'];

/** Support reads, ends sessions, resends a verification, disables and enables; never deletes, never secrets, keys, webhooks' secrets or settings. */
export const PERMISSIONS: Record<Permission, readonly OperatorRole[]> = {
  'project.read': ALL,
  'sessions.end': ALL,
  'users.status': ALL,
  'identifiers.verify': ALL,
  'users.delete': ADMINS,
  'passkeys.delete': ADMINS,
  'identifiers.delete': ADMINS,
  'settings.read': ADMINS,
  'settings.write': ADMINS,
  'secrets.read': ADMINS,
  'secrets.write': ADMINS,
  'keys.read': ADMINS,
  'keys.rotate': ADMINS,
  'webhooks.read': ALL,
  'webhooks.write': ADMINS,
  // disabling an endpoint stops what the site's backend relies on: an admin's call, undone by enabling it
  'webhooks.status': ADMINS,
  'deliveries.redeliver': ADMINS,
  operators: ['owner'],
};

/** What cannot be undone, or hands out power: needs a sign-in within the console project's recent-log-in window. */
export const NEEDS_RECENT_PROOF: ReadonlySet<Permission> = new Set<Permission>([
  'users.delete',
  'passkeys.delete',
  'identifiers.delete',
  'settings.write',
  'secrets.write',
  'keys.rotate',
  'webhooks.write',
  'operators',
]);

export function mayDo(operator: OperatorRecord, permission: Permission): boolean {
  return PERMISSIONS[permission].includes(operator.role);
}

/** Whether the operator may see the project at all (an owner sees every one, the console's own too). */
export function maySee(operator: OperatorRecord, projectId: string): boolean {
  return operator.role === 'owner' || operator.projects.includes(projectId);
}
