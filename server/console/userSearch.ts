// The console's user search (GET /api/projects/:p/users): prefixes of an address, phone number,
// username, user id or external id, case-insensitive, keyset paged by what matched. The store answers the
// matches from one index walk per kind (UsersRepo.searchMatches, migration 19); `npm run bench` measures this
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

/** A page's cursor: the key and user id of its last match, opaque to the page (base64url JSON). */
export function encodeCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

/** The keyset of a cursor this search answered; undefined for anything else. */
export function decodeCursor(cursor: string): [string, string] | undefined {
  if (cursor === '') return ['', ''];
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string' && v.length <= 300)) return value as [string, string];
  } catch {
    // not one of ours
  }
  return undefined;
}

/**
 * One page of the project's users matching `q` after `after` (decodeCursor's keyset), ordered by what
 * matched (then the user id). A user who matches by two values shows once on a page.
 */
export async function searchUsers(store: Store, projectId: string, q: string | undefined, after: readonly [string, string], limit: number) {
  const matches = await store.users.searchMatches(projectId, searchPrefix(q), after, limit + 1);
  const page: string[] = [];
  let consumed = 0;
  for (const match of matches) {
    if (page.length === limit) break;
    consumed++;
    if (!page.includes(match.id)) page.push(match.id);
  }
  const last = matches[consumed - 1];
  const [records, identifiers] = await Promise.all([store.users.getMany(page), shownIdentifiers(store, page)]);
  const byId = new Map(records.map((u) => [u.id, u]));
  return {
    users: page.flatMap((id) => {
      const u = byId.get(id);
      if (!u) return [];
      const own = identifiers.filter((i) => i.userId === id).map(({ userId: _, ...i }) => i);
      return [{ id: u.id, fullName: u.fullName, status: u.status, externalId: u.externalId, identifiers: own, created: timestamp(u.createdAt) }];
    }),
    nextCursor: consumed < matches.length && last ? encodeCursor(last.key, last.id) : null,
  };
}
