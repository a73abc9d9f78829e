// The Backend API's reading of the audit trail and the adoption figures: GET /v2/auditEvents and
// GET /v2/stats. Beyond Corbado's contract (server/README.md says so): API secrets of the project only,
// never the Frontend API.
import { ApiError } from '../ApiError.ts';
import { projectStats, shownRecord, type ShownRecord, type Stats } from '../audit/auditReader.ts';
import { sealPending } from '../audit/sealer.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { Issue } from '../schema.ts';
import type { AuditFilter, AuditRecord } from '../store/AuditRepo.ts';
import type { Store } from '../store/Store.ts';
import { paging, type ListQuery } from './listQuery.ts';

export const AUDIT_FILTERS = ['userID', 'event'] as const;

const USER_ID_PREFIX = 'usr-';

/** An RFC 3339 time of a query parameter (ms), or undefined when it is absent; a bad one is an issue. */
function timeParameter(raw: string | undefined, name: string, issues: Issue[]): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) issues.push({ field: name, message: `must be an RFC 3339 time such as 2026-01-31T00:00:00Z, got ${raw.slice(0, 40)}` });
  return Number.isNaN(ms) ? undefined : ms;
}

/** A filtered list counts its matches up to this many (paging.totalItemsCapped says when there are more). */
export const AUDIT_COUNT_CAP = 10_000;
/** A filtered list pages by number up to this many records deep; beyond, it follows paging.nextCursor. */
export const AUDIT_PAGE_WINDOW = 10_000;

export interface AuditPaging {
  /** 0 in the answer to a cursor */
  page: number;
  totalPages: number;
  totalItems: number;
  /** the filter matches more than totalItems (AUDIT_COUNT_CAP): a filtered list is counted that far only */
  totalItemsCapped?: true;
  /** hand it back as `cursor` for the records after this page; null: none after it */
  nextCursor: string | null;
}

/**
 * One page of the project's records in the order they happened, filtered by user, event and time.
 * Keyset paged: each page is one index range after a record's `seq`, however deep into the trail. A page
 * is addressed by `cursor` (the previous answer's paging.nextCursor) or by number: unfiltered, the
 * chain's numbers are dense from the oldest kept record, so page N starts at a known `seq` and the total
 * is the head's; filtered, page N is an OFFSET within the first AUDIT_PAGE_WINDOW records and the total
 * is counted up to AUDIT_COUNT_CAP.
 */
export async function listAuditEvents(
  store: Store,
  project: ProjectConfig,
  query: ListQuery<(typeof AUDIT_FILTERS)[number], never>,
  range: { since: string | undefined; until: string | undefined; cursor?: string | undefined; page?: string | undefined },
): Promise<{ auditEvents: ShownRecord[]; paging: AuditPaging }> {
  const issues: Issue[] = [];
  const filter: AuditFilter = { projectId: project.id };
  const since = timeParameter(range.since, 'since', issues);
  const until = timeParameter(range.until, 'until', issues);
  if (since !== undefined) filter.since = since;
  if (until !== undefined) filter.until = until;
  const rawCursor = range.cursor === '' ? undefined : range.cursor;
  const cursor = rawCursor === undefined ? undefined : /^\d{1,15}$/.test(rawCursor) ? Number(rawCursor) : NaN;
  if (Number.isNaN(cursor)) issues.push({ field: 'cursor', message: `must be a paging.nextCursor of an earlier answer, got ${String(rawCursor).slice(0, 40)}` });
  if (cursor !== undefined && range.page !== undefined && range.page !== '') issues.push({ field: 'page', message: 'give page or cursor, not both' });
  let none = false;
  for (const f of query.filters) {
    const value = f.field === 'userID' && !f.value.startsWith(USER_ID_PREFIX) ? `${USER_ID_PREFIX}${f.value}` : f.value;
    const key = f.field === 'userID' ? 'userId' : 'event';
    // two different values of one field match nothing
    if (filter[key] !== undefined && filter[key] !== value) none = true;
    filter[key] = value;
  }
  const filtered = Object.keys(filter).length > 1;
  const skipped = (query.page - 1) * query.pageSize;
  if (filtered && cursor === undefined && skipped + query.pageSize > AUDIT_PAGE_WINDOW) {
    issues.push({ field: 'page', message: `a filtered list pages by number to its ${AUDIT_PAGE_WINDOW.toLocaleString('en')}th record; beyond, pass paging.nextCursor as cursor` });
  }
  if (issues.length > 0) throw ApiError.invalidRequest('The list parameters are invalid', issues);
  const page = cursor === undefined ? query.page : 0;
  if (none) return { auditEvents: [], paging: { ...paging(page, query.pageSize, 0), nextCursor: null } };

  let records: AuditRecord[];
  let total: number;
  let capped = false;
  await sealPending(store);
  if (!filtered) {
    const head = await store.audit.head(project.id);
    const first = head?.firstSeq ?? 1;
    total = head ? Math.max(0, head.seq - first + 1) : 0;
    records = await store.audit.page(filter, cursor ?? first - 1 + skipped, query.pageSize + 1);
  } else {
    const [found, counted] = await Promise.all([
      store.audit.page(filter, cursor ?? 0, query.pageSize + 1, cursor === undefined ? skipped : 0),
      store.audit.countUpTo(filter, AUDIT_COUNT_CAP + 1),
    ]);
    records = found;
    capped = counted > AUDIT_COUNT_CAP;
    total = Math.min(counted, AUDIT_COUNT_CAP);
  }
  // one record more than the page tells whether another page follows
  const more = records.length > query.pageSize;
  const shown = more ? records.slice(0, query.pageSize) : records;
  return {
    auditEvents: shown.map(shownRecord),
    paging: { ...paging(page, query.pageSize, total), ...(capped ? { totalItemsCapped: true as const } : {}), nextCursor: more ? String(shown.at(-1)!.seq) : null },
  };
}

/** GET /v2/stats?days=30: the adoption figures of the last `days` days. */
export function stats(store: Store, project: ProjectConfig, rawDays: string | undefined, now: number): Promise<Stats> {
  const days = rawDays === undefined || rawDays === '' ? 30 : /^\d{1,4}$/.test(rawDays) ? Number(rawDays) : NaN;
  if (!Number.isInteger(days) || days < 1 || days > 3660) {
    throw ApiError.invalidRequest('The parameters are invalid', [{ field: 'days', message: `must be a whole number from 1 to 3660, got ${String(rawDays).slice(0, 20)}` }]);
  }
  return projectStats(store, project.id, days, now);
}
