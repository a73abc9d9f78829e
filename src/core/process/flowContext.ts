// What every area of the auth process works with: the API, the session, the window it mirrors, the
// atoms the views read, and the little state the areas share. The areas (start-up, sign-up and log-in,
// verification, passkeys, social, history) are functions taking this context; `Flow` holds one.
import { atom } from 'nanostores';
import type { ApiClient } from '../api/client';
import type { BlockType, EmailLinkRequest } from '../api/types';
import type { CorbadoError } from '../errors';
import type { Session } from '../session/session';
import type { FlowBlock } from './block';
import type { LastUser, LoginMethod } from './lastUser';
import type { ScreenName } from './screens';

/** 0 loading, 1 failed (component-unavailable page), 2 ready. */
export type InitState = 0 | 1 | 2;

export interface Completion {
  authType: 'signup' | 'login';
  /** how the visitor proved who they are, where known */
  method?: LoginMethod;
}

/** The two blocks a visitor switches between locally, through their alternatives. */
export const INIT_BLOCKS: readonly BlockType[] = ['signup-init', 'login-init'];

/**
 * What an area below calls in one above it. A server answer can say that a social log-in has come back
 * finished, and applying answers sits below the social area that finishes it.
 */
export interface FlowHooks {
  finishSocial(): Promise<void>;
}

export class FlowContext {
  readonly $block = atom<FlowBlock | undefined>(undefined);
  readonly $screen = atom<ScreenName>('login-init');
  readonly $initState = atom<InitState>(0);
  readonly $busy = atom(false);
  /** an error no block carries (start-up's, SPEC's globalError); a failed call's sits on its block (FlowBlock.failure) */
  readonly $error = atom<CorbadoError | undefined>(undefined);
  /** the last passkey ceremony failure, shown on the passkey-error screen (passkeyAlreadyExists: as a dialog) */
  readonly $ceremonyError = atom<CorbadoError | undefined>(undefined);
  readonly $appName = atom('');
  readonly $hideBadge = atom(false);
  /** where the e-mail link was verified, for the wording of the success screen */
  readonly $linkVerifiedHere = atom(false);
  /** what an e-mail link opened in another browser than the one that asked would approve (email-link-approval) */
  readonly $linkRequest = atom<EmailLinkRequest | undefined>(undefined);
  /** the account last logged in on this browser, offered on the welcome-back screen (lastUser.ts) */
  readonly $lastUser = atom<LastUser | undefined>(undefined);

  // The state of one area each, named after it. Fields without a first value are only declared: they
  // start out undefined, with no initialiser in the bundle.

  /** start-up (startUp.ts): the one start, and its first request having been sent */
  declare start: Promise<void> | undefined;
  markRequested: () => void = () => undefined;
  readonly requested = new Promise<void>((resolve) => (this.markRequested = resolve));
  /** a replacement for an initial process, running in the background; actions wait for it */
  declare replacing: Promise<void> | undefined;
  /**
   * the browser's capability answers for the process just started, still to come (bounded: see
   * clientInformationNow); an action waits for them, so that it goes to a process sent with them
   */
  declare checking: Promise<void> | undefined;
  /** whoever waits for the process to complete (Flow.onComplete) */
  readonly onComplete = new Set<(completion: Completion) => void>();
  /** history.ts: how many views keep the address bar in step, their popstate listener, the screen a confirmation covers */
  historyAttached = 0;
  /** the widget was loaded again or let go: nothing more is started for this flow */
  disposed = false;
  declare onPopState: (() => void) | undefined;
  declare screenBeforeAbort: ScreenName | undefined;
  /** emailLinkStart.ts: the e-mail link this page was opened with (its process id and token) */
  declare emailLink: { process: string; token: string } | undefined;
  /** emailLinkPolling.ts: the status poll */
  declare pollTimer: ReturnType<typeof setTimeout> | undefined;
  declare pollController: AbortController | undefined;
  /** conditionalUi.ts: the autofill's passkey request */
  declare conditional: AbortController | undefined;
  /** the challenge that request answers */
  declare conditionalChallenge: string | undefined;
  /** settles once the autofill's ceremony has ended (a browser allows one ceremony at a time) */
  conditionalSettled: Promise<unknown> = Promise.resolve();
  /** social.ts: a finished social log-in is being completed */
  socialFinishing = false;
  /** lastUser.ts: whether the page lets the widget remember the account, and the way noted last */
  declare remember: boolean;
  declare method: LoginMethod | undefined;

  constructor(
    readonly api: ApiClient,
    readonly session: Session,
    readonly projectId: string,
    readonly window: Window,
    readonly hooks: FlowHooks,
  ) {}
}
