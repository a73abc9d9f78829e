// The list parameters of Corbado's Backend API (common.yml): `filter[]` entries of the form
// `field:operator:value`, `sort` as `field:asc` or `field:desc`, `page` (from 1) and `pageSize`.
// Every fault is collected as a `field: message` issue and answered 400 with all of them.
import { ApiError } from '../ApiError.ts';
import type { Issue } from '../schema.ts';

export const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 10;

export interface Filter<F extends string> {
  field: F;
  value: string;
}

export interface ListQuery<F extends string, S extends string> {
  filters: Filter<F>[];
  sort: { field: S; descending: boolean } | undefined;
  page: number;
  pageSize: number;
}

export interface ListParameters {
  filter: string[];
  sort: string | undefined;
  page: string | undefined;
  pageSize: string | undefined;
}

function wholeNumber(raw: string | undefined, name: string, fallback: number, max: number, issues: Issue[]): number {
  if (raw === undefined || raw === '') return fallback;
  const value = /^\d{1,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    issues.push({ field: name, message: `must be a whole number from 1 to ${max}, got ${raw.slice(0, 40)}` });
    return fallback;
  }
  return value;
}

/**
 * Parses the list parameters against what a list allows: the fields it filters on (each with the `eq`
 * operator only) and the fields it sorts by. A filter on another field, another operator, a filter
 * without a value or a sort on an unknown field is refused rather than ignored: a host that asked for
 * one user's identifiers must never get everyone's.
 */
export function parseListQuery<F extends string, S extends string>(
  params: ListParameters,
  allowed: { filters: readonly F[]; sorts: readonly S[] },
): ListQuery<F, S> {
  const issues: Issue[] = [];
  const filters: Filter<F>[] = [];
  for (const entry of params.filter) {
    // the value may itself hold colons: only the first two separate
    const first = entry.indexOf(':');
    const second = first < 0 ? -1 : entry.indexOf(':', first + 1);
    const field = first < 0 ? entry : entry.slice(0, first);
    const operator = second < 0 ? '' : entry.slice(first + 1, second);
    const value = second < 0 ? '' : entry.slice(second + 1);
    const shown = entry.slice(0, 80);
    if (second < 0) issues.push({ field: 'filter[]', message: `must be field:operator:value, got ${shown}` });
    else if (!(allowed.filters as readonly string[]).includes(field)) {
      issues.push({ field: 'filter[]', message: `cannot filter on ${field.slice(0, 40)}; fields: ${allowed.filters.join(', ') || 'none'}` });
    } else if (operator !== 'eq') issues.push({ field: 'filter[]', message: `operator ${operator.slice(0, 20)} is not supported; use eq` });
    else if (value === '') issues.push({ field: 'filter[]', message: `${field} needs a value` });
    else filters.push({ field: field as F, value });
  }
  let sort: ListQuery<F, S>['sort'];
  const rawSort = params.sort?.trim();
  if (rawSort) {
    const match = /^([A-Za-z]+)(?::(asc|desc))?$/.exec(rawSort);
    if (!match || !(allowed.sorts as readonly string[]).includes(match[1]!)) {
      issues.push({ field: 'sort', message: `must be field:asc or field:desc with a field of ${allowed.sorts.join(', ')}, got ${rawSort.slice(0, 40)}` });
    } else sort = { field: match[1] as S, descending: match[2] === 'desc' };
  }
  const page = wholeNumber(params.page, 'page', 1, 1_000_000_000, issues);
  const pageSize = wholeNumber(params.pageSize, 'pageSize', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, issues);
  if (issues.length > 0) throw ApiError.invalidRequest('The list parameters are invalid', issues);
  return { filters, sort, page, pageSize };
}

/** The paging object of a list answer (common.yml `paging`). */
export function paging(page: number, pageSize: number, totalItems: number): { page: number; totalPages: number; totalItems: number } {
  return { page, totalPages: Math.ceil(totalItems / pageSize), totalItems };
}
