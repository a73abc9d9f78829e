// The Backend API's reading of the audit trail and the adoption figures: GET /v2/auditEvents and
// GET /v2/stats. Beyond Corbado's contract (server/README.md says so): API secrets of the project only,
// never the Frontend API.
import { ApiError } from '../ApiError.ts';
import { projectStats, shownRecord, type ShownRecord, type Stats } from '../audit/auditReader.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import type { Issue } from '../schema.ts';
import type { AuditFilter } from '../store/AuditRepo.ts';
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

/** One page of the project's records in the order they happened, filtered by user, event and time. */
export async function listAuditEvents(
  store: Store,
  project: ProjectConfig,
  query: ListQuery<(typeof AUDIT_FILTERS)[number], never>,
  range: { since: string | undefined; until: string | undefined },
): Promise<{ auditEvents: ShownRecord[]; paging: ReturnType<typeof paging> }> {
  const issues: Issue[] = [];
  const filter: AuditFilter = { projectId: project.id };
  const since = timeParameter(range.since, 'since', issues);
  const until = timeParameter(range.until, 'until', issues);
  if (since !== undefined) filter.since = since;
  if (until !== undefined) filter.until = until;
  for (const f of query.filters) {
    const value = f.field === 'userID' && !f.value.startsWith(USER_ID_PREFIX) ? `${USER_ID_PREFIX}${f.value}` : f.value;
    const key = f.field === 'userID' ? 'userId' : 'event';
    // two different values of one field match nothing
    if (filter[key] !== undefined && filter[key] !== value) return { auditEvents: [], paging: paging(query.page, query.pageSize, 0) };
    filter[key] = value;
  }
  if (issues.length > 0) throw ApiError.invalidRequest('The list parameters are invalid', issues);
  const [records, total] = await Promise.all([store.audit.page(filter, 0, query.pageSize, (query.page - 1) * query.pageSize), store.audit.count(filter)]);
  return { auditEvents: records.map(shownRecord), paging: paging(query.page, query.pageSize, total) };
}

/** GET /v2/stats?days=30: the adoption figures of the last `days` days. */
export function stats(store: Store, project: ProjectConfig, rawDays: string | undefined, now: number): Promise<Stats> {
  const days = rawDays === undefined || rawDays === '' ? 30 : /^\d{1,4}$/.test(rawDays) ? Number(rawDays) : NaN;
  if (!Number.isInteger(days) || days < 1 || days > 3660) {
    throw ApiError.invalidRequest('The parameters are invalid', [{ field: 'days', message: `must be a whole number from 1 to 3660, got ${String(rawDays).slice(0, 20)}` }]);
  }
  return projectStats(store, project.id, days, now);
}
