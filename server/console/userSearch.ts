// The console's user search (GET /api/projects/:p/users): prefixes of an address, phone number,
// username, user id or external id, case-insensitive, keyset paged by user id. The store answers the
// ids from one index range per kind (UsersRepo.searchIds, migration 19); `npm run bench` measures this
// function on a million users (BENCH_ONLY=console).
import { timestamp } from '../account/Account.ts';
import type { Store } from '../store/Store.ts';

/** What the search compares: lower case; a phone number without its spaces, dashes and brackets. */
export function searchPrefix(raw: string | undefined): string {
  const q = (raw ?? '').trim().slice(0, 200).toLowerCase();
  return /^\+?[\d\s()-]+$/.test(q) ? q.replace(/[\s()-]/g, '') : q;
}

/** The identifiers of these users as the console shows them (with the user's id, for grouping). */
export async function shownIdentifiers(store: Store, userIds: string[]) {
  return (await store.users.identifiersOfUsers(userIds)).map((i) => ({ id: i.id, userId: i.userId, type: i.type, value: i.value, status: i.status, primary: i.primary }));
}

/** One page of the project's users matching `q` after `cursor` (a user id; '' for the first page). */
export async function searchUsers(store: Store, projectId: string, q: string | undefined, cursor: string, limit: number) {
  const ids = await store.users.searchIds(projectId, searchPrefix(q), cursor, limit + 1);
  const page = ids.slice(0, limit);
  const [records, identifiers] = await Promise.all([store.users.getMany(page), shownIdentifiers(store, page)]);
  const byId = new Map(records.map((u) => [u.id, u]));
  return {
    users: page.flatMap((id) => {
      const u = byId.get(id);
      if (!u) return [];
      const own = identifiers.filter((i) => i.userId === id).map(({ userId: _, ...i }) => i);
      return [{ id: u.id, fullName: u.fullName, status: u.status, externalId: u.externalId, identifiers: own, created: timestamp(u.createdAt) }];
    }),
    nextCursor: ids.length > limit ? page.at(-1)! : null,
  };
}
