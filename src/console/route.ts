// The console's pages live in the location's hash (#/pro-1/users?q=ann), so that the listener serves
// one index.html for all of them and a page can be linked, reloaded and gone back to.

export type Page = 'users' | 'user' | 'adoption' | 'trail' | 'project' | 'operators';

export interface Route {
  page: Page;
  /** the project the page is about (none for operators) */
  project?: string;
  /** the user of the user's page */
  user?: string;
  query: Record<string, string>;
}

const PROJECT_PAGES: readonly Page[] = ['users', 'adoption', 'trail', 'project'];

/** The route of a location hash; an unknown one is the users of the given (or first) project. */
export function parseRoute(hash: string, fallbackProject?: string): Route {
  const [pathPart = '', queryPart = ''] = hash.replace(/^#/, '').split('?', 2);
  const query = Object.fromEntries(new URLSearchParams(queryPart));
  const parts = pathPart.split('/').filter(Boolean).map((part) => decodeURIComponent(part));
  if (parts[0] === 'operators') return { page: 'operators', query };
  const [project, page, user] = parts;
  if (project && page === 'users' && user) return { page: 'user', project, user, query };
  if (project && PROJECT_PAGES.includes(page as Page)) return { page: page as Page, project, query };
  return { page: 'users', ...(project ?? fallbackProject ? { project: project ?? fallbackProject } : {}), query: {} };
}

/** The hash of a route (the inverse of parseRoute; empty query values left out). */
export function routeHash(route: Route): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(route.query)) if (value) params.set(key, value);
  const query = params.toString() ? `?${params}` : '';
  if (route.page === 'operators') return `#/operators${query}`;
  const project = encodeURIComponent(route.project ?? '');
  if (route.page === 'user') return `#/${project}/users/${encodeURIComponent(route.user ?? '')}${query}`;
  return `#/${project}/${route.page}${query}`;
}
