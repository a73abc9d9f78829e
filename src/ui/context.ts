import { useStore } from '@nanostores/react';
import { createContext, useContext } from 'react';
import type { CorbadoApp } from '../core/app';
import { missingProvider } from '../core/errors';
import { $language, t } from '../core/i18n/i18n';

export const AppContext = createContext<CorbadoApp | undefined>(undefined);

export function useApp(): CorbadoApp {
  const app = useContext(AppContext);
  if (!app) throw missingProvider();
  return app;
}

/** The translate function; components that use it re-render when the language changes. */
export function useT(): typeof t {
  useStore($language);
  return t;
}
