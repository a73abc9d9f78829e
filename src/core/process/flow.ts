// The auth process: start-up, the current block and screen as atoms, and one action per user intent.
// The UI reads the atoms and calls the actions; it never talks to the API itself.
import type { ApiClient } from '../api/client';
import type { BlockType, IdentifierType, RequestError, SocialProvider } from '../api/types';
import type { Session } from '../session/session';
import { applyAnswer } from './applyAnswer';
import { startConditionalUi, stopConditionalUi } from './conditionalUi';
import { startPolling, stopPolling } from './emailLinkPolling';
import { FlowContext, type Completion } from './flowContext';
import { mirrorHash } from './hashMirror';
import { appendPasskey, canSkip, fallbacks, loginWithPasskey, skipBlock, skipPasskey, useFallback, type Fallback } from './passkeys';
import { dismissError, runAction } from './recovery';
import { blockFromHash } from './routes';
import { initialScreen, type ScreenName } from './screens';
import { collectPhone, collectUsername, prefer, submitLogin, submitSignup, switchLocally, switchToAlternative } from './signupAndLogin';
import { finishSocial, startSocial } from './social';
import { restartIfCompleted, retry, start } from './startUp';
import { continueAfterLink, resend, submitCode, updateIdentifier } from './verification';

export { EMAIL_POLL_INTERVAL_MS, EMAIL_POLL_MAX } from './emailLinkPolling';
export type { Completion, InitState } from './flowContext';
export type { Fallback } from './passkeys';

/** Screens whose block change is not confirmed before aborting (nothing would be lost). */
const ABORT_EXEMPT: readonly BlockType[] = ['signup-init', 'login-init', 'completed', 'continue-on-other-env'];

export interface FlowEnvironment {
  /** the window whose address and history the flow mirrors */
  window: Window;
}

export class Flow {
  readonly $block: FlowContext['$block'];
  readonly $screen: FlowContext['$screen'];
  readonly $initState: FlowContext['$initState'];
  readonly $busy: FlowContext['$busy'];
  readonly $error: FlowContext['$error'];
  readonly $ceremonyError: FlowContext['$ceremonyError'];
  readonly $appName: FlowContext['$appName'];
  readonly $hideBadge: FlowContext['$hideBadge'];
  readonly $linkVerifiedHere: FlowContext['$linkVerifiedHere'];

  readonly #ctx: FlowContext;
  #screenBeforeAbort: ScreenName | undefined;

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
    } = ctx);
    this.$screen.listen((screen) => (screen === 'email-link-sent' ? startPolling(ctx) : stopPolling(ctx)));
  }

  // --- start-up --------------------------------------------------------------------------------

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

  restartIfCompleted(): Promise<void> {
    return restartIfCompleted(this.#ctx);
  }

  dismissError(): void {
    dismissError(this.#ctx);
  }

  setScreen(screen: ScreenName): void {
    this.$screen.set(screen);
  }

  // --- switching and aborting ------------------------------------------------------------------

  switchToAlternative(type: BlockType): void {
    switchToAlternative(this.#ctx, type);
  }

  /** Keeps the flow in step with the address bar; views that show the flow attach while mounted. */
  attachHistory(): () => void {
    if (this.#ctx.historyAttached++ === 0) {
      this.#ctx.window.addEventListener('popstate', this.#onPopState);
      const block = this.$block.get();
      if (block) mirrorHash(this.#ctx, block.type, true);
    }
    return () => {
      if (--this.#ctx.historyAttached === 0) this.#ctx.window.removeEventListener('popstate', this.#onPopState);
    };
  }

  readonly #onPopState = () => {
    const block = this.$block.get();
    const target = blockFromHash(this.#ctx.window.location.hash);
    if (!block || !target || target === block.type || this.$busy.get()) return;
    if (switchLocally(this.#ctx, target as BlockType)) return;
    if (block.authType === 'login' || ABORT_EXEMPT.includes(block.type)) {
      void this.abort(target);
      return;
    }
    this.#screenBeforeAbort = this.$screen.get();
    this.$screen.set('confirm-process-abort');
  };

  /** "Complete the sign-up first": back to where the visitor was, and the address with it. */
  cancelAbort(): void {
    this.$screen.set(this.#screenBeforeAbort ?? initialScreen(this.$block.get()?.type ?? 'login-init'));
    this.#screenBeforeAbort = undefined;
    const block = this.$block.get();
    if (block && blockFromHash(this.#ctx.window.location.hash) !== block.type) this.#ctx.window.history.forward();
  }

  /** Resets the process: entered data is lost; the new process may start on the block the address names. */
  abort(target?: string): Promise<void> {
    this.#screenBeforeAbort = undefined;
    return runAction(this.#ctx, async () => {
      applyAnswer(this.#ctx, await this.#ctx.api.resetProcess());
      if (target) switchLocally(this.#ctx, target as BlockType);
    });
  }

  // --- sign-up and log-in ----------------------------------------------------------------------

  submitSignup(fields: { fullName?: string; email?: string; phone?: string; username?: string }): Promise<void> {
    return submitSignup(this.#ctx, fields);
  }

  submitLogin(identifierValue: string, isPhone: boolean): Promise<void> {
    return submitLogin(this.#ctx, identifierValue, isPhone);
  }

  startSocial(provider: SocialProvider): Promise<void> {
    return startSocial(this.#ctx, provider);
  }

  collectUsername(username: string): Promise<void> {
    return collectUsername(this.#ctx, username);
  }

  collectPhone(phone: string): Promise<void> {
    return collectPhone(this.#ctx, phone);
  }

  // --- passkeys --------------------------------------------------------------------------------

  fallbacks(block = this.$block.get()): Fallback[] {
    return fallbacks(block);
  }

  canSkip(block = this.$block.get()): boolean {
    return canSkip(block);
  }

  appendPasskey(): Promise<void> {
    return appendPasskey(this.#ctx);
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

  // --- one-time codes and links ----------------------------------------------------------------

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

  dispose(): void {
    stopPolling(this.#ctx);
    stopConditionalUi(this.#ctx);
    this.#ctx.window.removeEventListener('popstate', this.#onPopState);
    this.#ctx.historyAttached = 0;
  }
}

