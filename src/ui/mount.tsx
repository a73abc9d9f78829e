// Mounting a view: an open shadow root on the host's element, the widget's CSS adopted into it, a React
// root inside. Unmounting leaves nothing behind.
import { useStore } from '@nanostores/react';
import { useCallback, useState, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { CorbadoApp } from '../core/app';
import { $dark } from '../core/appearance';
import { $language } from '../core/i18n/i18n';
import { AnnounceContext, AppContext } from './context';
import { ErrorBoundary } from './components/ErrorBoundary';
import css from './styles/widget.css?inline';

let sheet: CSSStyleSheet | undefined;

function adoptStyles(shadow: ShadowRoot): void {
  try {
    sheet ??= new CSSStyleSheet();
    if (!sheet.cssRules.length) sheet.replaceSync(css);
    shadow.adoptedStyleSheets = [sheet];
  } catch {
    // no constructable stylesheets: a <style> element does the same
    const style = document.createElement('style');
    style.textContent = css;
    shadow.prepend(style);
  }
}

/**
 * The root of every view: the widget's language and direction (never the host page's), dark mode, and
 * the polite live region, present from the first render so that what is put into it is announced.
 */
function Frame({ children }: { children: ReactNode }) {
  const dark = useStore($dark);
  const language = useStore($language);
  const [message, setMessage] = useState('');
  // the same text twice is still a change, so it is said again
  const announce = useCallback((text: string) => setMessage((said) => (said === text && text ? `${text}\u00a0` : text)), []);
  // every language the widget has, bundled or added, is written left to right
  return (
    <div className={dark ? 'cb-root cb-dark' : 'cb-root'} lang={language} dir="ltr">
      <AnnounceContext.Provider value={announce}>{children}</AnnounceContext.Provider>
      <p className="cb-sr" role="status">
        {message}
      </p>
    </div>
  );
}

interface Mounted {
  root: Root;
  container: HTMLElement;
  themeClass?: string;
  themeProperties: string[];
  cleanup?: () => void;
}

const mounted = new WeakMap<Element, Mounted>();

/** Mounts a view; with `ready`, the first render waits for it (see Flow.requested). */
export function mountView(host: HTMLElement, app: CorbadoApp, view: ReactNode, cleanup?: () => void, ready?: Promise<unknown>): void {
  unmountView(host);
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  shadow.replaceChildren();
  adoptStyles(shadow);
  const container = document.createElement('div');
  shadow.append(container);

  const theme = app.options.theme;
  const record: Mounted = { root: createRoot(container), container, themeProperties: [], cleanup };
  if (typeof theme === 'string' && theme) {
    host.classList.add(theme);
    record.themeClass = theme;
  } else if (theme && typeof theme === 'object') {
    for (const [property, value] of Object.entries(theme)) {
      host.style.setProperty(property, value);
      record.themeProperties.push(property);
    }
  }
  mounted.set(host, record);
  const render = () => {
    if (mounted.get(host) !== record) return;
    record.root.render(
    <AppContext.Provider value={app}>
      <Frame>
        <ErrorBoundary>{view}</ErrorBoundary>
      </Frame>
    </AppContext.Provider>,
    );
  };
  if (ready) void ready.then(render);
  else render();
}

export function unmountView(host: HTMLElement): boolean {
  const record = mounted.get(host);
  if (!record) return false;
  mounted.delete(host);
  record.root.unmount();
  record.container.remove();
  if (host.shadowRoot) host.shadowRoot.adoptedStyleSheets = [];
  if (record.themeClass) host.classList.remove(record.themeClass);
  for (const property of record.themeProperties) host.style.removeProperty(property);
  record.cleanup?.();
  return true;
}
