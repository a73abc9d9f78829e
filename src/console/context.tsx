import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { ConsoleApiError, type ConsoleApi, type Operator } from './api';
import type { Language, Translate } from './i18n';
import type { Action } from './roles';
import type { Route } from './route';

export interface ConsoleContextValue {
  api: ConsoleApi;
  t: Translate;
  language: Language;
  operator: Operator;
  projects: { id: string; name: string }[];
  route: Route;
  navigate(route: Route): void;
  may(action: Action): boolean;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the console');
  return value;
}

export interface Loaded<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  reload(): void;
}

/** Loads what `load` answers whenever a dependency changes; a later answer replaces an earlier one only when newer. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const call = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => call === latest.current && setState({ data, loading: false }),
      (error: Error) => call === latest.current && setState({ error, loading: false }),
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** The error's text for a person: the server's message (its type when there is none). */
export function errorText(error: unknown): string {
  if (error instanceof ConsoleApiError) return error.message || error.type;
  return error instanceof Error ? error.message : String(error);
}

export function ErrorNote({ error }: { error: unknown }) {
  const { t } = useConsole();
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {t('common.error', { message: errorText(error) })}
    </p>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="notice" role="status">
      {children}
    </p>
  );
}
