// Who owns an address (issue 13, "proof before power"): a pending identifier proves nothing, so any
// number of accounts may hold one pending; proving it by a code or link claims it. The prover's copy
// becomes verified and every other account's pending copy is removed, in the caller's transaction.
import type { IdentifierType } from '../config/projectConfig.ts';
import { identifierData, passkeyData } from '../events/eventTypes.ts';
import { recordSessionsEnded, type EventRecorder } from '../events/WebhookEvents.ts';
import { UniqueViolation } from '../store/Database.ts';
import type { Store } from '../store/Store.ts';
import type { IdentifierRecord } from '../store/UsersRepo.ts';

/** Thrown inside a claim's savepoint so that nothing of it stays when another account owns the value. */
class ClaimLost extends Error {}

/**
 * The identifier has been proven by its own user: verified, the other holders lose their pending
 * copies, and an e-mail address confirms the user's pending passkeys. False, with nothing changed, when
 * another account holds it verified already (a later proof by a loser is refused).
 */
export async function claimIdentifier(store: Store, events: EventRecorder, projectId: string, identifier: IdentifierRecord): Promise<boolean> {
  try {
    await store.transaction(async () => {
      const owner = await store.users.findVerifiedIdentifier(projectId, identifier.type, identifier.normalized);
      if (owner && owner.id !== identifier.id) throw new ClaimLost();
      try {
        await store.transaction(() => store.users.markIdentifierVerified(identifier.id));
      } catch (error) {
        // PostgreSQL: a concurrent proof of the same value by another account committed first
        if (error instanceof UniqueViolation) throw new ClaimLost();
        throw error;
      }
      await removeOtherHolders(store, events, projectId, identifier.type, identifier.normalized, identifier.userId);
      if (identifier.type === 'email') await store.credentials.activatePending(identifier.userId);
      await events.record(projectId, 'identifier.verified', { userId: identifier.userId, identifier: identifierData({ ...identifier, status: 'verified' }) });
    });
    return true;
  } catch (error) {
    if (error instanceof ClaimLost) return false;
    throw error;
  }
}

/**
 * Removes the pending copies of a value that `ownerId` now holds verified. A removed primary one is
 * succeeded by another of its type the loser holds, a verified one first.
 */
export async function removeOtherHolders(
  store: Store,
  events: EventRecorder,
  projectId: string,
  type: IdentifierType,
  normalized: string,
  ownerId: string,
): Promise<void> {
  const lost = await store.users.removePendingCopies(projectId, type, normalized, ownerId);
  for (const identifier of lost) {
    await events.record(projectId, 'identifier.removed', { userId: identifier.userId, identifier: identifierData(identifier) });
    if (!identifier.primary) continue;
    const rest = (await store.users.listIdentifiers(identifier.userId)).filter((i) => i.type === type);
    const successor = rest.find((i) => i.status === 'verified') ?? rest[0];
    if (successor) await store.users.setPrimary(successor);
  }
}

/**
 * A log-in proved an address of an account that had no verified identifier: whoever made that account
 * may not be the person who owns the address (account pre-hijacking). Everything they may hold on it is
 * taken away: every session issued so far, the pending passkeys and the linked provider accounts, but
 * the passkeys this very process presented or created (SPEC §4: who holds both keeps the passkey).
 */
export async function takeOverUnverifiedAccount(
  store: Store,
  events: EventRecorder,
  projectId: string,
  userId: string,
  keptPasskeys: readonly string[],
  now: number,
): Promise<void> {
  await recordSessionsEnded(events, projectId, userId, await store.sessions.revokeAllOfUser(userId, now), 'takeover');
  for (const passkey of await store.credentials.deletePendingExcept(userId, keptPasskeys)) {
    await events.record(projectId, 'passkey.removed', { userId, passkey: passkeyData(passkey) });
  }
  for (const provider of await store.socialAccounts.deleteByUser(userId)) await events.record(projectId, 'social_account.unlinked', { userId, provider });
}
