// The auth process: the current block and screen as atoms, and one action per user intent. The UI reads
// the atoms and calls the actions; it never talks to the API itself. Each action hands over to the
// module of its area, where it is described: start-up (startUp.ts), sign-up and log-in
// (signupAndLogin.ts), social sign-in (social.ts), passkeys (passkeys.ts, conditionalUi.ts),
// verification and the e-mail link (verification.ts, emailLinkStart.ts, emailLinkPolling.ts), back,
// forward and abort (history.ts), welcome back (welcomeBack.ts, on what lastUser.ts remembers); what they
// share is a FlowContext (flowContext.ts).
import type { ApiClient } from '../api/client';
import type { BlockType, IdentifierType, RequestError, SignupFieldAnswer, SocialProvider } from '../api/types';
import type { CorbadoError } from '../errors';
import type { Session } from '../session/session';
import { startConditionalUi, stopConditionalUi } from './conditionalUi';
import { startPolling, stopPolling } from './emailLinkPolling';
import { answerLink } from './emailLinkStart';
import { FlowContext, type Completion } from './flowContext';
import { abort, attachHistory, cancelAbort, detachHistory } from './history';
import { recallLastUser } from './lastUser';
import { appendPasskey, canSkip, confirmPasskeyExists, fallbacks, loginWithPasskey, skipBlock, skipPasskey, useFallback, type Fallback } from './passkeys';
import { dismissError } from './recovery';
import type { ScreenName } from './screens';
import { collectPhone, collectUsername, prefer, submitLogin, submitSignup, switchToAlternative } from './signupAndLogin';
import { finishSocial, leaveSocialVerify, startSocial } from './social';
import { socialProviderUnderWay } from './socialProviderUnderWay';
import { restartIfCompleted, retry, start } from './startUp';
import { continueAfterLink, resend, submitCode, updateIdentifier } from './verification';
import { continueAsLastUser, forgetLastUser } from './welcomeBack';

export { EMAIL_POLL_INTERVAL_MS } from './emailLinkPolling';
export type { Completion, InitState } from './flowContext';
export type { Fallback } from './passkeys';
export type { LastUser, LoginMethod } from './lastUser';

export interface FlowEnvironment {
  /** the window whose address and history the flow mirrors */
  window: Window;
  /** whether the account logged in last may be kept and offered again (default true) */
  rememberLastUser?: boolean;
}

/** An error the flow shows, as the host hears of it (onError, corbado:error). */
export interface ShownError {
  /** the server's error code, else the widget's (CorbadoError's type or kind) */
  code: string;
  /** a description in English, for logs; not the text shown */
  message: string;
}

export class Flow {
  declare readonly $block: FlowContext['$block'];
  declare readonly $screen: FlowContext['$screen'];
  declare readonly $initState: FlowContext['$initState'];
  declare readonly $busy: FlowContext['$busy'];
  declare readonly $error: FlowContext['$error'];
  declare readonly $ceremonyError: FlowContext['$ceremonyError'];
  declare readonly $appName: FlowContext['$appName'];
  declare readonly $hideBadge: FlowContext['$hideBadge'];
  declare readonly $linkVerifiedHere: FlowContext['$linkVerifiedHere'];
  declare readonly $linkRequest: FlowContext['$linkRequest'];
  declare readonly $lastUser: FlowContext['$lastUser'];

  readonly #ctx: FlowContext;

  constructor(api: ApiClient, session: Session, projectId: string, environment: FlowEnvironment) {
    const ctx: FlowContext = new FlowContext(api, session, projectId, environment.window, { finishSocial: () => finishSocial(ctx) });
    this.#ctx = ctx;
    ({
      $block: this.$block,
      $screen: this.$screen,
      $initState: this.$initState,
      $busy: this.$busy,
      $error: this.$error,
      $ceremonyError: this.$ceremonyError,
      $appName: this.$appName,
      $hideBadge: this.$hideBadge,
      $linkVerifiedHere: this.$linkVerifiedHere,
      $linkRequest: this.$linkRequest,
      $lastUser: this.$lastUser,
    } = ctx);
    recallLastUser(ctx, environment.rememberLastUser !== false);
    this.$screen.listen((screen) => (screen === 'email-link-sent' ? startPolling(ctx) : stopPolling(ctx)));
  }

  // --- start-up ---------------------------------------------------------------------------------

  start(): Promise<void> {
    return start(this.#ctx);
  }

  /**
   * Resolves once start-up has sent its first request (or ended). Views wait for it before their first
   * render, so rendering never delays the one round trip the first screen needs.
   */
  requested(): Promise<void> {
    return this.#ctx.requested;
  }

  retry(): Promise<void> {
    return retry(this.#ctx);
  }

  prefer(type: 'signup-init' | 'login-init'): Promise<void> {
    return prefer(this.#ctx, type);
  }

  onComplete(listener: (completion: Completion) => void): () => void {
    this.#ctx.onComplete.add(listener);
    return () => this.#ctx.onComplete.delete(listener);
  }

  /**
   * Each error the flow shows, once: a failed call or start, a failed passkey ceremony, and every error
   * the server put on the block or its fields (whatever the block's data holds with a code). Errors
   * present when listening starts are heard at once.
   */
  onError(listener: (error: ShownError) => void): () => void {
    const heard = new WeakSet<object>();
    const hear = (value: unknown): void => {
      if (!value || typeof value !== 'object' || heard.has(value)) return;
      heard.add(value);
      const error = value as Partial<RequestError & CorbadoError>;
      if (typeof (error.code ?? error.kind) !== 'string') Object.values(value).forEach(hear);
      else if (!error.ignorable) listener({ code: (error.code ?? error.type ?? error.kind)!, message: error.message! });
    };
    const stops = [this.$block.subscribe((block) => hear([block?.failure, block?.error, block?.data])), this.$error.subscribe(hear), this.$ceremonyError.subscribe(hear)];
    return () => stops.forEach((stop) => stop());
  }

  restartIfCompleted(): Promise<void> {
    return restartIfCompleted(this.#ctx);
  }

  dismissError(): void {
    dismissError(this.#ctx);
  }

  setScreen(screen: ScreenName): void {
    this.$screen.set(screen);
  }

  // --- history and abort ------------------------------------------------------------------------

  attachHistory(): () => void {
    return attachHistory(this.#ctx);
  }

  cancelAbort(): void {
    cancelAbort(this.#ctx);
  }

  abort(target?: string): Promise<void> {
    return abort(this.#ctx, target);
  }

  // --- sign-up and log-in -----------------------------------------------------------------------

  submitSignup(fields: { fullName?: string; email?: string; phone?: string; username?: string }, signupFields?: SignupFieldAnswer[]): Promise<void> {
    return submitSignup(this.#ctx, fields, signupFields);
  }

  submitLogin(identifierValue: string, isPhone: boolean): Promise<void> {
    return submitLogin(this.#ctx, identifierValue, isPhone);
  }

  switchToAlternative(type: BlockType): void {
    switchToAlternative(this.#ctx, type);
  }

  collectUsername(username: string): Promise<void> {
    return collectUsername(this.#ctx, username);
  }

  collectPhone(phone: string): Promise<void> {
    return collectPhone(this.#ctx, phone);
  }

  /** from sign-up with the answers to the project's sign-up fields, which a new account needs */
  startSocial(provider: SocialProvider, signupFields?: SignupFieldAnswer[]): Promise<void> {
    return startSocial(this.#ctx, provider, signupFields);
  }

  /** the provider named on the social-verify screen */
  socialProvider(): SocialProvider | undefined {
    return socialProviderUnderWay();
  }

  leaveSocialVerify(): Promise<void> | void {
    return leaveSocialVerify(this.#ctx);
  }

  // --- welcome back ----------------------------------------------------------------------------

  /** The welcome-back screen's main action: the account last logged in, the way it used. */
  continueAsLastUser(): Promise<void> {
    return continueAsLastUser(this.#ctx);
  }

  /** "Use another account" (and a deleted account): the remembered account is forgotten. */
  forgetLastUser(): void {
    forgetLastUser(this.#ctx);
  }

  // --- passkeys ---------------------------------------------------------------------------------

  fallbacks(block = this.$block.get()): Fallback[] {
    return fallbacks(block);
  }

  canSkip(block = this.$block.get()): boolean {
    return canSkip(block);
  }

  appendPasskey(): Promise<void> {
    return appendPasskey(this.#ctx);
  }

  /** the confirm of the passkey-already-exists dialog that a passkey append may raise */
  confirmPasskeyExists(): Promise<void> {
    return confirmPasskeyExists(this.#ctx);
  }

  loginWithPasskey(options: { automatic?: boolean } = {}): Promise<void> {
    return loginWithPasskey(this.#ctx, options);
  }

  startConditionalUi(): Promise<void> {
    return startConditionalUi(this.#ctx);
  }

  stopConditionalUi(): void {
    stopConditionalUi(this.#ctx);
  }

  skipPasskey(): Promise<void> {
    return skipPasskey(this.#ctx);
  }

  skipBlock(): Promise<void> {
    return skipBlock(this.#ctx);
  }

  useFallback(fallback: Fallback): Promise<void> {
    return useFallback(this.#ctx, fallback);
  }

  // --- verification and the e-mail link ---------------------------------------------------------

  submitCode(code: string): Promise<void> {
    return submitCode(this.#ctx, code);
  }

  resend(): Promise<void> {
    return resend(this.#ctx);
  }

  updateIdentifier(identifierType: IdentifierType, value: string): Promise<RequestError | undefined> {
    return updateIdentifier(this.#ctx, identifierType, value);
  }

  continueAfterLink(): void {
    continueAfterLink(this.#ctx);
  }

  /** the page an e-mail link opened: it asks for no new link (the browser that asked for it does) */
  get linkPage(): boolean {
    return !!this.#ctx.emailLink;
  }

  /** email-link-approval: "Yes, it's me: continue there", "No", or log in (sign up) here instead */
  answerLink(answer: 'approve' | 'decline' | 'here'): Promise<void> {
    return answerLink(this.#ctx, answer);
  }

  dispose(): void {
    this.#ctx.disposed = true;
    stopPolling(this.#ctx);
    stopConditionalUi(this.#ctx);
    detachHistory(this.#ctx);
  }
}

