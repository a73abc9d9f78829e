// The sign-in: our own widget, on the console's own project, mounted on this page. Once the widget has
// signed the operator in, its short session is traded for the console's cookie (POST /api/session).
// `again`: the server asked for a recent sign-in (recent_login_required): the widget's session is ended
// first, so that the operator proves it is them now.
import { useEffect, useRef, useState } from 'react';
import type { CorbadoGlobal } from '../Corbado';
import { ConsoleApiError, type ConsoleApi, type SessionBody } from './api';
import type { Language, Translate } from './i18n';

export interface ConsoleConfig {
  projectId: string;
  frontendApiUrl: string;
  /** where the listener serves the widget's bundle (default /widget/corbado.js, server/console/consoleApp.ts) */
  widgetUrl?: string;
}

declare global {
  interface Window {
    Corbado?: CorbadoGlobal;
  }
}

let script: Promise<CorbadoGlobal> | undefined;
/** the widget loaded for the language it was last loaded in */
let loaded: { language: Language; widget: Promise<CorbadoGlobal> } | undefined;

/**
 * The widget's script from the console's own origin (script-src 'self'), fetched once; loaded for the
 * console's language, and loaded again when the operator switches it (the widget takes its language at
 * load), so that the sign-in speaks the language the rest of the page does.
 */
export function loadWidget(config: ConsoleConfig, language: Language, doc: Document = document): Promise<CorbadoGlobal> {
  script ??= new Promise<CorbadoGlobal>((resolve, reject) => {
    const ready = () => (doc.defaultView?.Corbado ? resolve(doc.defaultView.Corbado) : reject(new Error('widget missing')));
    if (doc.defaultView?.Corbado) return ready();
    const element = doc.createElement('script');
    element.src = config.widgetUrl ?? '/widget/corbado.js';
    element.onload = ready;
    element.onerror = () => reject(new Error('widget missing'));
    doc.head.append(element);
  });
  script.catch(() => (script = undefined));
  if (loaded?.language === language) return loaded.widget;
  const widget = script.then(async (Corbado) => {
    await Corbado.load({ projectId: config.projectId, frontendApiUrl: config.frontendApiUrl, defaultLanguage: language, autoDetectLanguage: false });
    return Corbado;
  });
  const current = (loaded = { language, widget });
  widget.catch(() => {
    if (loaded === current) loaded = undefined;
  });
  return widget;
}

interface Props {
  api: ConsoleApi;
  config: ConsoleConfig;
  t: Translate;
  language: Language;
  again?: boolean;
  onSignedIn(session: SessionBody): void;
}

export function SignIn({ api, config, t, language, again = false, onSignedIn }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    let mounted: { Corbado: CorbadoGlobal; element: HTMLElement } | undefined;
    let cancelled = false;
    void (async () => {
      let Corbado: CorbadoGlobal;
      try {
        Corbado = await loadWidget(config, language);
        if (again && Corbado.isAuthenticated) await Corbado.logout();
      } catch {
        setProblem(t('signIn.widgetMissing'));
        return;
      }
      const element = host.current;
      if (cancelled || !element) return;
      mounted = { Corbado, element };
      Corbado.mountAuthUI(element, {
        onLoggedIn: () => {
          const shortSession = Corbado.shortSession;
          if (!shortSession) return;
          api.signIn(shortSession).then(onSignedIn, async (error: unknown) => {
            setProblem(
              error instanceof ConsoleApiError && error.type === 'not_an_operator'
                ? t('signIn.notOperator')
                : t('signIn.failed', { message: error instanceof Error ? error.message : String(error) }),
            );
            // the widget starts over: another address may be tried
            await Corbado.logout();
          });
        },
      });
    })();
    return () => {
      cancelled = true;
      if (mounted) mounted.Corbado.unmountAuthUI(mounted.element);
    };
  }, [api, config, again, language, onSignedIn, t]);
  const content = (
    <>
      <h1 id="sign-in-title">{again ? t('signIn.again') : t('signIn.title')}</h1>
      <p>{again ? t('signIn.againIntro') : t('signIn.intro')}</p>
      {problem ? (
        <p className="error" role="alert">
          {problem}
        </p>
      ) : null}
      <div id="widget" ref={host} />
    </>
  );
  // signing in again happens over a page that has its own <main>
  return again ? (
    <section className="sign-in" role="dialog" aria-modal="true" aria-labelledby="sign-in-title">
      {content}
    </section>
  ) : (
    <main id="content" className="sign-in">
      {content}
    </main>
  );
}
