// The host API: the one global a script tag defines (SPEC.md section 1), with the names of Corbado's
// @corbado/web-js 3 beside SPEC.md's (README, "Coming from @corbado/web-js"), so host code written for
// that version runs unchanged.
import { atom, type ReadableAtom } from 'nanostores';
import type { MeResponse, PasskeyListResponse } from './core/api/types';
import { CorbadoApp, type CorbadoOptions } from './core/app';
import type { LoginMethod, ShownError } from './core/process/flow';
import { CorbadoError, unhandledFrontendError } from './core/errors';
import { addLanguage } from './core/i18n/i18n';
import type { AuthState, SessionPersistence, SessionUser } from './core/session/session';
import { mountView, unmountView } from './ui/mount';
import { accountView } from './ui/components/ErrorBoundary';
import { AuthView } from './ui/views/AuthView';
import { LoginView } from './ui/views/LoginView';
import { PasskeyListView } from './ui/views/PasskeyListView';
import { SignUpView } from './ui/views/SignUpView';
import { UserDetailsView } from './ui/views/UserDetailsView';
import { createElement, type FunctionComponent } from 'react';

export type { CorbadoOptions, AuthState, SessionPersistence, SessionUser, CorbadoError, MeResponse, PasskeyListResponse, ShownError, LoginMethod };

/** What a view tells its host besides the completion (README, "Events"); onError for the auth views. */
export interface ViewCallbacks {
  /** an error the view shows: `{ code, message }` */
  onError?: (error: ShownError) => void;
  /** the session ended: Corbado.logout(), the account deleted, another tab, the server refusing it, or its expiry */
  onLogout?: () => void;
}

export interface AuthCallbacks extends ViewCallbacks {
  /** called when a log-in (or, in the combined view, a sign-up) completes */
  onLoggedIn?: () => void;
  /** web-js 3: the step the combined view starts on */
  initialBlock?: 'signup-init' | 'login-init';
}

/** What web-js 3's account calls answer (a ts-results Result): the value, or the error. */
export type Result<T> = { ok: true; err: false; val: T } | { ok: false; err: true; val: CorbadoError };

export interface SignUpCallbacks extends ViewCallbacks {
  /** called when the view completes, a sign-up or a log-in (as web-js 3's) */
  onSignedUp?: () => void;
}

export interface Subscription {
  unsubscribe(): void;
}

/** A change stream: the listener gets the current value at once, then every change. */
export interface ChangeStream<T> {
  subscribe(listener: (value: T) => void): Subscription;
}

let app: CorbadoApp | undefined;

function loaded(call: string): CorbadoApp {
  if (!app) throw new Error(`Please call load() before ${call}`);
  return app;
}

// The host's view of the session: mirrors of the loaded widget's atoms, so subscriptions made before
// load() (or kept across a second load()) keep working.
const $user = atom<SessionUser | undefined>(undefined);
const $shortSession = atom<string | undefined>(undefined);
const $authState = atom<AuthState>(0);
const $persistence = atom<SessionPersistence | undefined>(undefined);
let unmirror: (() => void)[] = [];

function mirror(next: CorbadoApp): void {
  for (const stop of unmirror) stop();
  unmirror = [
    next.session.$user.subscribe((value) => $user.set(value)),
    next.session.$shortSession.subscribe((value) => $shortSession.set(value)),
    next.session.$authState.subscribe((value) => $authState.set(value)),
    next.session.$persistence.subscribe((value) => $persistence.set(value)),
    // a session that ends with no view of this widget mounted is told to the document (README, "Events")
    endedSessions(next, (user) => {
      if (!bubbler(next, 'logout')) document.dispatchEvent(new CustomEvent('corbado:logout', { bubbles: true, composed: true, detail: { user } }));
    }),
  ];
}

/** Calls `ended` with the user whose session ended, each time one does. */
function endedSessions(current: CorbadoApp, ended: (user: SessionUser) => void): () => void {
  const { $user } = current.session;
  let user = $user.get();
  return $user.listen((next) => {
    const gone = user && !next ? user : undefined;
    user = next;
    if (gone) ended(gone);
  });
}

function stream<T>(store: ReadableAtom<T>): ChangeStream<T> {
  return {
    subscribe(listener) {
      return { unsubscribe: store.subscribe(listener) };
    },
  };
}

/** Runs a web-js 3 account call on the loaded widget and answers its Result. */
async function result<T>(current: CorbadoApp, run: () => Promise<T>): Promise<Result<T>> {
  try {
    await current.session.ready();
    return { ok: true, err: false, val: await run() };
  } catch (error) {
    return { ok: false, err: true, val: unhandledFrontendError(error) };
  }
}

/** The mounted views, in the order they were mounted: which widget each belongs to, and whether it is an auth view. */
const views = new Map<HTMLElement, { app: CorbadoApp; auth: boolean }>();

/**
 * The element an event of this type bubbles from: of the mounted views that raise it and are in the
 * page, the one mounted first. None: a logout is raised on the document.
 */
function bubbler(current: CorbadoApp, type: string): HTMLElement | undefined {
  for (const [element, view] of views) if (view.app === current && (view.auth || type === 'logout') && element.isConnected) return element;
}

/**
 * Mounts a view. Every view tells its host element that the session ended (corbado:logout); an auth
 * view (with `onDone`, its completion callback) also tells of each sign-up, log-in and error it shows
 * (corbado:signup, corbado:login, corbado:error). Each mounted view raises the event on its element;
 * only the bubbler's bubbles (composed, out of the shadow root), so that the document hears each
 * occurrence once (README, "Events").
 */
function mount(call: string, element: HTMLElement, view: FunctionComponent, callbacks: ViewCallbacks = {}, onDone?: () => void) {
  const current = loaded(call);
  if (!(element instanceof HTMLElement)) throw new Error(`${call} needs an element to mount into`);
  const mounted = { app: current, auth: !!onDone };
  views.delete(element);
  views.set(element, mounted);
  const tell = (type: string, detail: unknown) =>
    element.dispatchEvent(new CustomEvent(`corbado:${type}`, { bubbles: bubbler(current, type) === element, composed: true, detail }));
  const { $user } = current.session;
  const stops = [
    endedSessions(current, (user) => {
      tell('logout', { user });
      callbacks.onLogout?.();
    }),
    () => {
      if (views.get(element) === mounted) views.delete(element);
    },
  ];
  // auth views render once the process request is on its way, so rendering never holds it back
  let ready: Promise<void> | undefined;
  if (onDone) {
    stops.push(
      current.flow.onComplete(({ authType, method }) => {
        tell(authType, { user: $user.get(), method });
        onDone();
      }),
      current.flow.onError((error) => {
        tell('error', error);
        callbacks.onError?.(error);
      }),
    );
    void current.flow.start();
    ready = current.flow.requested();
  }
  mountView(element, current, createElement(view), () => stops.forEach((stop) => stop()), ready);
}

const Corbado = {
  /**
   * Loads the widget for a project; rejects with "Invalid project ID" for anything but pro-<digits>.
   * (web-js 3's second argument, its telemetry settings, is accepted and ignored: nothing is sent.)
   */
  async load(options: CorbadoOptions, _telemetry?: unknown): Promise<void> {
    const next = new CorbadoApp(options, window);
    app?.dispose();
    app = next;
    next.start();
    mirror(next);
  },

  /**
   * Adds a language, keyed as en.json: what an add-on script (corbado.fr.js, …) calls. Before load(),
   * or after it: the language is then chosen again by the options given to load().
   */
  addLanguage,

  mountAuthUI(element: HTMLElement, callbacks: AuthCallbacks = {}): void {
    const view = callbacks.initialBlock === 'signup-init' ? SignUpView : callbacks.initialBlock === 'login-init' ? LoginView : AuthView;
    mount('mountAuthUI', element, view, callbacks, () => callbacks.onLoggedIn?.());
  },
  unmountAuthUI(element: HTMLElement): void {
    loaded('unmountAuthUI');
    unmountView(element);
  },

  mountSignUpUI(element: HTMLElement, callbacks: SignUpCallbacks = {}): void {
    mount('mountSignUpUI', element, SignUpView, callbacks, () => callbacks.onSignedUp?.());
  },
  unmountSignUpUI(element: HTMLElement): void {
    loaded('unmountSignUpUI');
    unmountView(element);
  },

  mountLoginUI(element: HTMLElement, callbacks: AuthCallbacks = {}): void {
    mount('mountLoginUI', element, LoginView, callbacks, () => callbacks.onLoggedIn?.());
  },
  unmountLoginUI(element: HTMLElement): void {
    loaded('unmountLoginUI');
    unmountView(element);
  },

  mountPasskeyListUI(element: HTMLElement, callbacks: Pick<ViewCallbacks, 'onLogout'> = {}): void {
    mount('mountPasskeyListUI', element, accountView(PasskeyListView), callbacks);
  },
  unmountPasskeyListUI(element: HTMLElement): void {
    loaded('unmountPasskeyListUI');
    unmountView(element);
  },

  mountUserUI(element: HTMLElement, callbacks: Pick<ViewCallbacks, 'onLogout'> = {}): void {
    mount('mountUserUI', element, accountView(UserDetailsView), callbacks);
  },
  unmountUserUI(element: HTMLElement): void {
    loaded('unmountUserUI');
    unmountView(element);
  },

  /** Logs out on the server, clears the stored session; a mounted auth view starts over. */
  async logout(): Promise<void> {
    await loaded('logout').logout();
  },

  get user(): SessionUser | undefined {
    return $user.get();
  },
  get shortSession(): string | undefined {
    return $shortSession.get();
  },
  get isAuthenticated(): boolean {
    return $authState.get() === 1;
  },

  /**
   * Where the long session of the current (or last) sign-in is kept: "cookie", "storage", or
   * "short-only" when the page is on another site than the Frontend API and the browser refused its
   * cookie: the visitor is signed out when the short session expires (README, "Where to put the server").
   */
  get sessionPersistence(): SessionPersistence | undefined {
    return $persistence.get();
  },

  userChanges: stream($user),
  shortSessionChanges: stream($shortSession),
  authStateChanges: stream($authState),
  sessionPersistenceChanges: stream($persistence),

  // --- web-js 3 names ----------------------------------------------------------------------------

  /** web-js 3: the short session */
  get sessionToken(): string | undefined {
    return $shortSession.get();
  },
  /** web-js 3: the error of the initial load (the auth process could not start; SPEC.md section 8), else undefined */
  get globalError(): CorbadoError | undefined {
    return app?.flow.$error.get();
  },
  /** web-js 3: shortSessionChanges */
  sessionTokenChanges: stream($shortSession),

  /** web-js 3: the logged-in user's passkeys */
  getPasskeys(abortController?: AbortController): Promise<Result<PasskeyListResponse>> {
    const current = loaded('getPasskeys');
    return result(current, () => current.api.passkeys(abortController?.signal));
  },
  /** web-js 3: the logged-in user's name, identifiers and social accounts */
  getFullUser(abortController?: AbortController): Promise<Result<MeResponse>> {
    const current = loaded('getFullUser');
    return result(current, () => current.api.me(abortController?.signal));
  },
  /** web-js 3: creates a passkey on this device (mounted passkey lists reload) */
  appendPasskey(): Promise<Result<void>> {
    const current = loaded('appendPasskey');
    return result(current, () => current.account.createPasskey());
  },
  /** web-js 3: deletes one of the user's passkeys by its id (mounted passkey lists reload) */
  deletePasskey(id: string): Promise<Result<void>> {
    const current = loaded('deletePasskey');
    return result(current, () => current.account.deletePasskey(id));
  },
};

export type CorbadoGlobal = typeof Corbado;
export default Corbado;
