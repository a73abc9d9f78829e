// The changes to a project's setup, one place each, for `npm run admin` and the console alike: its
// configuration, API secrets, signing keys and webhook endpoints. Each change and its audit record are
// one transaction; the actor is the scope's (`admin`, or `operator:opr-…` in the console).
import type { AuditTrail } from '../audit/AuditTrail.ts';
import { createApiSecret, type NewApiSecret } from '../backend/ApiSecrets.ts';
import type { EventType } from '../events/eventTypes.ts';
import { recordSessionsEnded, type EventRecorder } from '../events/WebhookEvents.ts';
import { addWebhookEndpoint, type AddedEndpoint } from '../events/webhookEndpoints.ts';
import type { Resolver, TargetRules } from '../events/webhookTargets.ts';
import type { Sealer } from '../senders/DeliveryWorker.ts';
import type { KeyRing, RotationResult } from '../session/KeyRing.ts';
import type { Store } from '../store/Store.ts';
import type { WebhookEndpointRecord } from '../store/WebhookEndpointsRepo.ts';
import { resolveProjectConfig, type ProjectConfig } from './projectConfig.ts';

type Trail = Pick<AuditTrail, 'record'>;

/**
 * Replaces a project's configuration with `partial` (every setting it leaves out takes its default),
 * validated as `admin projects update` validates it (400 with every problem); `alongside` runs in the
 * same transaction (the command's OAuth clients) and names what it changed. Undefined: no such project.
 */
export async function updateProject(
  store: Store,
  trail: Trail,
  id: string,
  partial: unknown,
  now: number,
  alongside?: { changed: string[]; apply: () => Promise<void> },
): Promise<ProjectConfig | undefined> {
  const config = resolveProjectConfig(id, partial, undefined);
  const updated = await store.transaction(async () => {
    const before = await store.projects.get(id);
    if (!before || !(await store.projects.update(config, now))) return false;
    await alongside?.apply();
    const changed = (Object.keys(config) as (keyof ProjectConfig)[]).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(config[k]));
    await trail.record(id, { event: 'project.settings_changed', target: `project:${id}`, details: { changed: [...changed, ...(alongside?.changed ?? [])].join(',') } });
    return true;
  });
  return updated ? config : undefined;
}

/** A new Backend API secret, shown this once. */
export function issueApiSecret(store: Store, trail: Trail, projectId: string, label: string, now: number): Promise<NewApiSecret> {
  return store.transaction(async () => {
    const made = await createApiSecret(store, projectId, label, now);
    await trail.record(made.projectId, { event: 'api_secret.created', target: `secret:${made.id}` });
    return made;
  });
}

/** Revokes a live secret of the project (`projectId` undefined: of any project); false when there is none. */
export function revokeApiSecret(store: Store, trail: Trail, secretId: string, projectId: string | undefined, now: number): Promise<boolean> {
  return store.transaction(async () => {
    const secret = await store.apiSecrets.get(secretId);
    if (!secret || (projectId !== undefined && secret.projectId !== projectId) || !(await store.apiSecrets.revoke(secretId, now))) return false;
    await trail.record(secret.projectId, { event: 'api_secret.revoked', target: `secret:${secretId}` });
    return true;
  });
}

/**
 * A new signing key for the project (signing after `leadMs`, the rotation's default lead without it).
 * With `revoke` (a key that leaked): the new key signs at once, every earlier key leaves the JWKS and is
 * deleted, and every live session of the project ends, each recorded through `revoke.events`. The
 * rotation and its records are one transaction: a record that cannot be written leaves everything as it was.
 */
export async function rotateSigningKey(
  keyRing: KeyRing,
  trail: Trail,
  project: ProjectConfig,
  options: { leadMs?: number; revoke?: { store: Store; events: EventRecorder; now: number } } = {},
): Promise<RotationResult & { sessionsEnded?: number }> {
  const { revoke } = options;
  let sessionsEnded = 0;
  const rotated = await keyRing.rotate(project, {
    ...(options.leadMs !== undefined ? { leadMs: options.leadMs } : {}),
    revoke: revoke !== undefined,
    within: async (rotation) => {
      await trail.record(project.id, { event: 'signing_key.created', target: `key:${rotation.kid}`, details: { signsFrom: rotation.signsFrom, replaced: rotation.replaced.length } });
      if (!revoke) return;
      for (const key of rotation.replaced) await trail.record(project.id, { event: 'signing_key.revoked', target: `key:${key.kid}` });
      // whatever was signed in while the key was out is signed out
      const ended = await revoke.store.sessions.revokeAllOfProject(project.id, revoke.now);
      for (const session of ended) await recordSessionsEnded(revoke.events, project.id, session.userId, [session.id], 'key-rotation');
      sessionsEnded = ended.length;
    },
  });
  return revoke ? { ...rotated, sessionsEnded } : rotated;
}

/** Adds a webhook endpoint (its signing secret is answered this once); throws naming the problem when the URL is refused. */
export async function registerWebhookEndpoint(
  store: Store,
  keys: Sealer,
  trail: Trail,
  input: { projectId: string; url: string; events: EventType[] | null; rules: TargetRules },
  now: number,
  resolve?: Resolver,
): Promise<AddedEndpoint> {
  const added = await addWebhookEndpoint(store, keys, input, now, resolve);
  await trail.record(added.projectId, {
    event: 'webhook_endpoint.added',
    target: `webhook_endpoint:${added.id}`,
    details: { url: new URL(added.url).origin, events: added.events?.join(',') ?? 'every event' },
  });
  return added;
}

/** Removes an endpoint and what still waits for it; false when the project has no such endpoint. */
export async function removeWebhookEndpoint(store: Store, trail: Trail, endpointId: string, projectId: string | undefined): Promise<boolean> {
  const endpoint = await store.webhookEndpoints.get(endpointId);
  if (!endpoint || (projectId !== undefined && endpoint.projectId !== projectId)) return false;
  await store.transaction(async () => {
    await store.webhookEndpoints.remove(endpoint.id);
    await trail.record(endpoint.projectId, { event: 'webhook_endpoint.removed', target: `webhook_endpoint:${endpoint.id}` });
  });
  return true;
}

/**
 * Disables an endpoint (it gets no new deliveries; those waiting are held) or enables it again (the held
 * ones go out, unless their give-up horizon passed meanwhile). The endpoint as it is now; undefined when
 * the project has no such endpoint. Setting the state it already has changes and records nothing.
 */
export async function setWebhookEndpointEnabled(
  store: Store,
  trail: Trail,
  endpointId: string,
  projectId: string | undefined,
  enabled: boolean,
  now: number,
): Promise<WebhookEndpointRecord | undefined> {
  return store.transaction(async () => {
    const endpoint = await store.webhookEndpoints.get(endpointId);
    if (!endpoint || (projectId !== undefined && endpoint.projectId !== projectId)) return undefined;
    if (await store.webhookEndpoints.setDisabled(endpoint.id, enabled ? null : now)) {
      // out of the due range while disabled, so that the worker's poll never walks a held backlog
      await (enabled ? store.webhookDeliveries.release(endpoint.id, now) : store.webhookDeliveries.hold(endpoint.id));
      await trail.record(endpoint.projectId, { event: enabled ? 'webhook_endpoint.enabled' : 'webhook_endpoint.disabled', target: `webhook_endpoint:${endpoint.id}` });
    }
    return store.webhookEndpoints.get(endpoint.id);
  });
}
