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

/** Says a text through the view's polite live region (screen changes, "code sent", loading). */
export const AnnounceContext = createContext<(text: string) => void>(() => undefined);

export function useAnnounce(): (text: string) => void {
  return useContext(AnnounceContext);
}

/**
 * Whether the widget may take the focus: only when it is already inside this view or nowhere
 * (on the body, where it falls when the focused element goes away), never from the host page.
 */
export function mayTakeFocus(inside: Element): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active === (inside.getRootNode() as ShadowRoot).host;
}
