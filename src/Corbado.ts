// The host API: the one global a script tag defines (SPEC.md section 1).
import { atom, type ReadableAtom } from 'nanostores';
import { CorbadoApp, type CorbadoOptions } from './core/app';
import type { AuthState, SessionUser } from './core/session/session';
import { mountView, unmountView } from './ui/mount';
import { AuthView } from './ui/views/AuthView';
import { LoginView } from './ui/views/LoginView';
import { PasskeyListView } from './ui/views/PasskeyListView';
import { SignUpView } from './ui/views/SignUpView';
import { UserDetailsView } from './ui/views/UserDetailsView';
import { createElement, type FunctionComponent } from 'react';

export type { CorbadoOptions, AuthState, SessionUser };

export interface AuthCallbacks {
  /** called when a log-in (or, in the combined view, a sign-up) completes */
  onLoggedIn?: () => void;
}

export interface SignUpCallbacks {
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
let unmirror: (() => void)[] = [];

function mirror(next: CorbadoApp): void {
  for (const stop of unmirror) stop();
  unmirror = [
    next.session.$user.subscribe((value) => $user.set(value)),
    next.session.$shortSession.subscribe((value) => $shortSession.set(value)),
    next.session.$authState.subscribe((value) => $authState.set(value)),
  ];
}

function stream<T>(store: ReadableAtom<T>): ChangeStream<T> {
  return {
    subscribe(listener) {
      return { unsubscribe: store.subscribe(listener) };
    },
  };
}

function mount(call: string, element: HTMLElement, view: FunctionComponent, onDone?: (authType: 'signup' | 'login') => void) {
  const current = loaded(call);
  if (!(element instanceof HTMLElement)) throw new Error(`${call} needs an element to mount into`);
  const stop = onDone ? current.flow.onComplete(({ authType }) => onDone(authType)) : undefined;
  // auth views render once the process request is on its way, so rendering never holds it back
  let ready: Promise<void> | undefined;
  if (onDone) {
    void current.flow.start();
    ready = current.flow.requested();
  }
  mountView(element, current, createElement(view), stop, ready);
}

const Corbado = {
  /** Loads the widget for a project; rejects with "Invalid project ID" for anything but pro-<digits>. */
  async load(options: CorbadoOptions): Promise<void> {
    const next = new CorbadoApp(options, window);
    app?.dispose();
    app = next;
    next.start();
    mirror(next);
  },

  mountAuthUI(element: HTMLElement, callbacks: AuthCallbacks = {}): void {
    mount('mountAuthUI', element, AuthView, () => callbacks.onLoggedIn?.());
  },
  unmountAuthUI(element: HTMLElement): void {
    loaded('unmountAuthUI');
    unmountView(element);
  },

  mountSignUpUI(element: HTMLElement, callbacks: SignUpCallbacks = {}): void {
    mount('mountSignUpUI', element, SignUpView, () => callbacks.onSignedUp?.());
  },
  unmountSignUpUI(element: HTMLElement): void {
    loaded('unmountSignUpUI');
    unmountView(element);
  },

  mountLoginUI(element: HTMLElement, callbacks: AuthCallbacks = {}): void {
    mount('mountLoginUI', element, LoginView, () => callbacks.onLoggedIn?.());
  },
  unmountLoginUI(element: HTMLElement): void {
    loaded('unmountLoginUI');
    unmountView(element);
  },

  mountPasskeyListUI(element: HTMLElement): void {
    mount('mountPasskeyListUI', element, PasskeyListView);
  },
  unmountPasskeyListUI(element: HTMLElement): void {
    loaded('unmountPasskeyListUI');
    unmountView(element);
  },

  mountUserUI(element: HTMLElement): void {
    mount('mountUserUI', element, UserDetailsView);
  },
  unmountUserUI(element: HTMLElement): void {
    loaded('unmountUserUI');
    unmountView(element);
  },

  /** Logs out on the server, clears the stored session; a mounted auth view starts over. */
  async logout(): Promise<void> {
    const current = loaded('logout');
    await current.session.logout();
    await current.flow.restartIfCompleted();
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

  userChanges: stream($user),
  shortSessionChanges: stream($shortSession),
  authStateChanges: stream($authState),
};

export type CorbadoGlobal = typeof Corbado;
export default Corbado;
