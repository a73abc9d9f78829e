// The trail: the audit records of the project with filters (user, event, outcome, actor, time), each
// linking to its user; the filtered view exported as CSV or JSON lines (the server streams the file).
import { useState, type FormEvent } from 'react';
import { path, withQuery } from '../api';
import { ErrorNote, useConsole, useLoad } from '../context';
import { routeHash } from '../route';
import { TrailTable, type AuditRecord } from '../TrailTable';

export const TRAIL_FILTERS = ['user', 'event', 'outcome', 'actor', 'since', 'until'] as const;
type Filters = Partial<Record<(typeof TRAIL_FILTERS)[number], string>>;

/** The filters of a route's query (the others left out). */
export function trailFilters(query: Record<string, string>): Filters {
  return Object.fromEntries(TRAIL_FILTERS.filter((name) => query[name]).map((name) => [name, query[name]!]));
}

/** A datetime-local value (UTC, as the page says) as RFC 3339 for the server; other text as it is. */
export function asInstant(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(value) ? `${value}:00Z` : value;
}

export function serverFilters(filters: Filters): Record<string, string | undefined> {
  return { ...filters, since: asInstant(filters.since), until: asInstant(filters.until) };
}

export function Trail({ project }: { project: string }) {
  const { api, t, route, navigate } = useConsole();
  const filters = trailFilters(route.query);
  const [draft, setDraft] = useState<Filters>(filters);
  const [more, setMore] = useState<AuditRecord[]>([]);
  const [cursor, setCursor] = useState<string | null>();
  const [error, setError] = useState<unknown>();
  const key = JSON.stringify(filters);
  const page = useLoad(async () => {
    const answer = await api.get<{ events: AuditRecord[]; nextCursor: string | null }>(path`/projects/${project}/audit`, { ...serverFilters(filters), limit: 50 });
    setMore([]);
    setCursor(answer.nextCursor ?? null);
    return answer.events;
  }, [api, project, key]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    navigate({ page: 'trail', project, query: Object.fromEntries(Object.entries(draft).filter(([, value]) => value)) as Record<string, string> });
  };
  const loadMore = () =>
    api.get<{ events: AuditRecord[]; nextCursor: string | null }>(path`/projects/${project}/audit`, { ...serverFilters(filters), limit: 50, cursor }).then((answer) => {
      setMore((shown) => [...shown, ...answer.events]);
      setCursor(answer.nextCursor ?? null);
    }, setError);
  const exportUrl = (format: 'csv' | 'jsonl') => `/api${withQuery(path`/projects/${project}/audit/export`, { format, ...serverFilters(filters) })}`;
  const field = (name: (typeof TRAIL_FILTERS)[number], label: string, type = 'text') => (
    <label key={name}>
      {label}
      <input type={type} name={name} value={draft[name] ?? ''} onChange={(event) => setDraft({ ...draft, [name]: event.target.value })} />
    </label>
  );
  const events = [...(page.data ?? []), ...more];

  return (
    <>
      <h1>{t('trail.title')}</h1>
      <form className="filters" onSubmit={apply} aria-label={t('trail.filters')}>
        {field('user', t('trail.user'))}
        {field('event', t('trail.event'))}
        <label>
          {t('trail.outcome')}
          <select value={draft.outcome ?? ''} onChange={(event) => setDraft({ ...draft, outcome: event.target.value })}>
            <option value="">{t('trail.any')}</option>
            <option value="done">{t('trail.done')}</option>
            <option value="refused">{t('trail.refused')}</option>
          </select>
        </label>
        {field('actor', t('trail.actor'))}
        {field('since', `${t('trail.since')} (UTC)`, 'datetime-local')}
        {field('until', `${t('trail.until')} (UTC)`, 'datetime-local')}
        <button type="submit">{t('trail.apply')}</button>
      </form>
      <p className="buttons">
        <a className="button" href={exportUrl('csv')} download>
          {t('trail.exportCsv')}
        </a>
        <a className="button" href={exportUrl('jsonl')} download>
          {t('trail.exportJsonl')}
        </a>
      </p>
      <ErrorNote error={page.error ?? error} />
      {page.loading && !page.data ? <p role="status">{t('common.loading')}</p> : null}
      {page.data && !events.length ? <p role="status">{t('trail.empty')}</p> : null}
      {events.length ? <TrailTable project={project} events={events} caption={t('trail.title')} /> : null}
      {cursor ? (
        <button type="button" onClick={() => void loadMore()}>
          {t('common.more')}
        </button>
      ) : null}
      {filters.user ? (
        <p>
          <a href={routeHash({ page: 'user', project, user: filters.user, query: {} })}>{filters.user}</a>
        </p>
      ) : null}
    </>
  );
}
