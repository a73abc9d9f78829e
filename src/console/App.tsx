import { useCallback, useEffect, useMemo, useState } from 'react';
import { ConsoleApi, type SessionBody } from './api';
import { ConsoleContext, type ConsoleContextValue } from './context';
import { preferredLanguage, translator, type Language } from './i18n';
import { Adoption } from './pages/Adoption';
import { Operators } from './pages/Operators';
import { Project } from './pages/Project';
import { Trail } from './pages/Trail';
import { User } from './pages/User';
import { Users } from './pages/Users';
import { may } from './roles';
import { parseRoute, routeHash, type Page, type Route } from './route';
import { SignIn, type ConsoleConfig } from './SignIn';
import { applyTheme, storedTheme, type ThemeChoice } from './theme';

const LANGUAGE_KEY = 'corbado-console-language';

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function initialLanguage(): Language {
  const stored = safeStorage()?.getItem(LANGUAGE_KEY);
  return stored === 'en' || stored === 'de' ? stored : preferredLanguage(navigator.languages ?? [navigator.language]);
}

const NAV: { page: Page; key: 'nav.users' | 'nav.adoption' | 'nav.trail' | 'nav.project' }[] = [
  { page: 'users', key: 'nav.users' },
  { page: 'adoption', key: 'nav.adoption' },
  { page: 'trail', key: 'nav.trail' },
  { page: 'project', key: 'nav.project' },
];

export function App({ api: given }: { api?: ConsoleApi }) {
  const api = useMemo(() => given ?? new ConsoleApi(), [given]);
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const [theme, setTheme] = useState<ThemeChoice>(() => storedTheme(safeStorage()));
  const [config, setConfig] = useState<ConsoleConfig>();
  const [session, setSession] = useState<SessionBody | null>();
  const [projects, setProjects] = useState<{ id: string; name: string }[]>([]);
  const [hash, setHash] = useState(() => window.location.hash);
  const [reauth, setReauth] = useState<{ resolve(): void; reject(error: Error): void }>();
  const [startError, setStartError] = useState<string>();
  const t = useMemo(() => translator(language), [language]);

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = t('app.title');
    safeStorage()?.setItem(LANGUAGE_KEY, language);
  }, [language, t]);
  useEffect(() => applyTheme(theme, document.documentElement, safeStorage()), [theme]);
  useEffect(() => {
    const onHash = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    api.setOnSignedOut(() => setSession(null));
    api.setReauthenticate(() => new Promise<void>((resolve, reject) => setReauth({ resolve, reject })));
    Promise.all([api.get<ConsoleConfig>('/config'), api.session()]).then(
      ([loadedConfig, current]) => {
        setConfig(loadedConfig);
        setSession(current ?? null);
      },
      (error: Error) => setStartError(error.message),
    );
  }, [api]);
  useEffect(() => {
    if (!session) return;
    api.get<{ projects: { id: string; name: string }[] }>('/projects').then(
      (answer) => setProjects(answer.projects),
      () => setProjects([]),
    );
  }, [api, session]);

  const onSignedIn = useCallback((body: SessionBody) => setSession(body), []);
  const onSignedInAgain = useCallback(
    (body: SessionBody) => {
      setSession(body);
      reauth?.resolve();
      setReauth(undefined);
    },
    [reauth],
  );

  const chrome = (
    <div className="settings">
      <label>
        {t('header.language')}{' '}
        <select value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
          <option value="en" lang="en">
            English
          </option>
          <option value="de" lang="de">
            Deutsch
          </option>
        </select>
      </label>
      <label>
        {t('header.theme')}{' '}
        <select value={theme} onChange={(event) => setTheme(event.target.value as ThemeChoice)}>
          <option value="system">{t('theme.system')}</option>
          <option value="light">{t('theme.light')}</option>
          <option value="dark">{t('theme.dark')}</option>
        </select>
      </label>
    </div>
  );

  if (startError) {
    return (
      <main id="content">
        <p className="error" role="alert">
          {t('common.error', { message: startError })}
        </p>
      </main>
    );
  }
  if (!config || session === undefined) {
    return (
      <main id="content">
        <p role="status">{t('common.loading')}</p>
      </main>
    );
  }
  if (!session) {
    return (
      <>
        <header className="top">{chrome}</header>
        <SignIn api={api} config={config} t={t} language={language} onSignedIn={onSignedIn} />
      </>
    );
  }

  const operator = session.operator;
  const visible = projects.filter((project) => project.id !== 'pro-console' || operator.role === 'owner');
  const fallback = visible.find((project) => project.id !== 'pro-console')?.id ?? visible[0]?.id;
  const route = parseRoute(hash, fallback);
  const navigate = (next: Route) => {
    window.location.hash = routeHash(next);
  };
  const value: ConsoleContextValue = { api, t, language, operator, projects: visible, route, navigate, may: (action) => may(operator.role, action) };
  const current = route.page === 'user' ? 'users' : route.page;

  return (
    <ConsoleContext.Provider value={value}>
      <a className="skip" href="#content" onClick={(event) => (event.preventDefault(), document.getElementById('content')?.focus())}>
        {t('app.skip')}
      </a>
      <header className="top">
        <p className="brand">{t('app.title')}</p>
        {route.page !== 'operators' && visible.length ? (
          <label>
            {t('header.project')}{' '}
            <select value={route.project ?? ''} onChange={(event) => navigate({ page: route.page === 'user' ? 'users' : route.page, project: event.target.value, query: {} })}>
              {visible.map((project) => (
                <option key={project.id} value={project.id}>
                  {project.name} ({project.id})
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {chrome}
        <p className="who">{t('header.signedInAs', { email: operator.email, role: t(`role.${operator.role}`) })}</p>
        <button
          type="button"
          onClick={() => {
            void api.signOut().finally(() => {
              setSession(null);
              void window.Corbado?.logout();
            });
          }}
        >
          {t('header.signOut')}
        </button>
      </header>
      <nav aria-label={t('nav.label')}>
        <ul>
          {NAV.map((item) => (
            <li key={item.page}>
              <a href={routeHash({ page: item.page, project: route.project ?? fallback, query: {} })} aria-current={current === item.page ? 'page' : undefined}>
                {t(item.key)}
              </a>
            </li>
          ))}
          {may(operator.role, 'manageOperators') ? (
            <li>
              <a href="#/operators" aria-current={current === 'operators' ? 'page' : undefined}>
                {t('nav.operators')}
              </a>
            </li>
          ) : null}
        </ul>
      </nav>
      <main id="content" tabIndex={-1}>
        <PageOf route={route} />
      </main>
      {reauth ? (
        <div className="overlay">
          <SignIn api={api} config={config} t={t} language={language} again onSignedIn={onSignedInAgain} />
          <button
            type="button"
            onClick={() => {
              reauth.reject(new Error(t('signIn.againIntro')));
              setReauth(undefined);
            }}
          >
            {t('common.cancel')}
          </button>
        </div>
      ) : null}
    </ConsoleContext.Provider>
  );
}

function PageOf({ route }: { route: Route }) {
  if (route.page === 'operators') return <Operators />;
  if (!route.project) return null;
  // keyed by project (and user): a page's state starts over for another one
  const key = `${route.project}/${route.user ?? ''}`;
  switch (route.page) {
    case 'user':
      return <User key={key} project={route.project} userId={route.user!} />;
    case 'adoption':
      return <Adoption key={key} project={route.project} />;
    case 'trail':
      return <Trail key={key} project={route.project} />;
    case 'project':
      return <Project key={key} project={route.project} />;
    default:
      return <Users key={key} project={route.project} />;
  }
}
