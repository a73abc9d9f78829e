// Registering a project's webhook endpoints (the admin command's `webhooks add | list | remove`). Each
// endpoint gets a signing secret of its own, `whsec_` and 32 random bytes in base64 as the Standard
// Webhooks specification has it: shown once, when it is added, and stored sealed under
// KEY_ENCRYPTION_SECRET like the server's other keys.
import { randomBytes } from 'node:crypto';
import { newId } from '../randomValues.ts';
import type { Sealer } from '../senders/DeliveryWorker.ts';
import type { Store } from '../store/Store.ts';
import type { EventType } from './eventTypes.ts';
import { resolvedProblem, type Resolver, type TargetRules } from './webhookTargets.ts';

export interface AddedEndpoint {
  id: string;
  projectId: string;
  url: string;
  /** null: every event */
  events: EventType[] | null;
  /** the signing secret: shown this once */
  secret: string;
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Adds an endpoint to a project; throws naming the problem when the URL is refused or the project is unknown. */
export async function addWebhookEndpoint(
  store: Store,
  keys: Sealer,
  input: { projectId: string; url: string; events: EventType[] | null; rules: TargetRules },
  now: number,
  /** how the URL's host name is resolved for the check (the system's resolver by default) */
  resolve?: Resolver,
): Promise<AddedEndpoint> {
  const problem = await resolvedProblem(input.url, input.rules, resolve);
  if (problem) throw new Error(problem);
  if (!(await store.projects.get(input.projectId))) throw new Error(`there is no project ${input.projectId}`);
  const secret = newWebhookSecret();
  const endpoint = { id: newId('whe'), projectId: input.projectId, url: new URL(input.url).href, events: input.events };
  await store.webhookEndpoints.insert({ ...endpoint, sealedSecret: keys.seal(secret), createdAt: now });
  return { ...endpoint, secret };
}
