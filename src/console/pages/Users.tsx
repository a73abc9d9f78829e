// Users: search as you type (the first letters of an address, phone, username, user id or external id),
// a page at a time (the server's keyset cursor), each row linking to the user's page.
import { useEffect, useState } from 'react';
import { path } from '../api';
import { ErrorNote, useConsole } from '../context';
import { formatTime } from '../format';
import { parseRoute, routeHash } from '../route';
import { Table } from '../Table';

export interface Identifier {
  id: string;
  type: string;
  value: string;
  status: string;
  primary: boolean;
}

export interface UserSummary {
  id: string;
  fullName: string;
  status: string;
  externalId?: string | null;
  identifiers: Identifier[];
  created: string;
}

/** How long typing pauses before the search is sent (ms). */
export const SEARCH_DELAY = 200;
export const PAGE_SIZE = 25;

export function Users({ project }: { project: string }) {
  const { api, t, language, route } = useConsole();
  const [query, setQuery] = useState(route.query.q ?? '');
  const [sent, setSent] = useState(query);
  const [users, setUsers] = useState<UserSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const timer = setTimeout(() => setSent(query.trim()), SEARCH_DELAY);
    return () => clearTimeout(timer);
  }, [query]);

  useEffect(() => {
    let current = true;
    setLoading(true);
    // the search goes into the address only while it still shows this list: a row opened within the
    // typing pause (the hash already the user's, its hashchange not yet handled) stays opened
    const here = parseRoute(window.location.hash, project);
    if (here.page === 'users' && here.project === project) window.history.replaceState(null, '', routeHash({ page: 'users', project, query: { q: sent } }));
    api.get<{ users: UserSummary[]; nextCursor: string | null }>(path`/projects/${project}/users`, { q: sent, limit: PAGE_SIZE }).then(
      (answer) => {
        if (!current) return;
        setUsers(answer.users);
        setCursor(answer.nextCursor ?? null);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!current) return;
        setError(failure);
        setLoading(false);
      },
    );
    return () => {
      current = false;
    };
  }, [api, project, sent]);

  const more = () => {
    setLoading(true);
    api.get<{ users: UserSummary[]; nextCursor: string | null }>(path`/projects/${project}/users`, { q: sent, limit: PAGE_SIZE, cursor }).then(
      (answer) => {
        setUsers((shown) => [...shown, ...answer.users]);
        setCursor(answer.nextCursor ?? null);
        setLoading(false);
      },
      (failure: unknown) => {
        setError(failure);
        setLoading(false);
      },
    );
  };

  return (
    <>
      <h1>{t('users.title')}</h1>
      <div role="search">
        <label htmlFor="user-search">{t('users.search')}</label>
        <input id="user-search" type="search" value={query} onChange={(event) => setQuery(event.target.value)} aria-describedby="user-search-hint" autoComplete="off" spellCheck={false} />
        <p id="user-search-hint" className="hint">
          {t('users.searchHint')}
        </p>
      </div>
      <ErrorNote error={error} />
      <p role="status" className="hint">
        {loading ? t('common.loading') : users.length ? t('users.count', { count: users.length }) : t('users.empty')}
      </p>
      {users.length ? (
        <Table head={[t('users.name'), t('users.identifiers'), t('common.status'), t('common.created')]}>
              {users.map((user) => (
                <tr key={user.id}>
                  <th scope="row">
                    <a href={routeHash({ page: 'user', project, user: user.id, query: {} })}>{user.fullName || user.identifiers.find((i) => i.primary)?.value || user.id}</a>
                    <span className="sub">{user.id}</span>
                  </th>
                  <td>{user.identifiers.map((identifier) => identifier.value).join(', ')}</td>
                  <td>{user.status}</td>
                  <td>{formatTime(user.created, language)}</td>
                </tr>
              ))}
            </Table>
      ) : null}
      {cursor ? (
        <button type="button" onClick={more} disabled={loading}>
          {t('common.more')}
        </button>
      ) : null}
    </>
  );
}
