// The auth process: start-up, the current block and screen as atoms, and one action per user intent.
// The UI reads the atoms and calls the actions; it never talks to the API itself.
import { atom } from 'nanostores';
import { RequestCancelled, type ApiClient } from '../api/client';
import type {
  BlockType,
  CompletedData,
  IdentifierType,
  ProcessResponse,
  RequestError,
  SocialData,
  SocialProvider,
  VerificationMethod,
} from '../api/types';
import {
  CorbadoError,
  emailLinkTokenMissing,
  passkeyChallengeCancelled,
  unhandledFrontendError,
} from '../errors';
import type { Session } from '../session/session';
import {
  isProcessValid,
  nowSeconds,
  readItem,
  readStoredProcess,
  storageKeys,
  writeItem,
  writeStoredProcess,
} from '../storage';
import { clientInformation, createPasskey, getPasskey, webAuthnSupported } from '../webauthn/webauthn';
import { isInitialBlock, parseBlock, switchTo, verificationMethodOf, type FlowBlock } from './block';
import { readEmailLink, withoutEmailLinkParams, type EmailLinkEntry } from './emailLink';
import { blockFromHash, hashForBlock, pushesHistory } from './routes';
import { initialScreen, type ScreenName } from './screens';

/** 0 loading, 1 failed (component-unavailable page), 2 ready. */
export type InitState = 0 | 1 | 2;

export const EMAIL_POLL_INTERVAL_MS = 2000;
export const EMAIL_POLL_MAX = 120;
/** The two blocks a visitor switches between locally, through their alternatives. */
const INIT_BLOCKS: readonly BlockType[] = ['signup-init', 'login-init'];
/** Screens whose block change is not confirmed before aborting (nothing would be lost). */
const ABORT_EXEMPT: readonly BlockType[] = ['signup-init', 'login-init', 'completed', 'continue-on-other-env'];

export interface Fallback {
  method: VerificationMethod;
  identifierType: IdentifierType;
}

export interface FlowEnvironment {
  /** the window whose address and history the flow mirrors */
  window: Window;
}

export interface Completion {
  authType: 'signup' | 'login';
}

export class Flow {
  readonly $block = atom<FlowBlock | undefined>(undefined);
  readonly $screen = atom<ScreenName>('login-init');
  readonly $initState = atom<InitState>(0);
  readonly $busy = atom(false);
  /** an unexpected error, shown as a popup over the current screen */
  readonly $error = atom<CorbadoError | undefined>(undefined);
  /** the last passkey ceremony failure, shown on the passkey-error screen */
  readonly $ceremonyError = atom<CorbadoError | undefined>(undefined);
  readonly $appName = atom('');
  readonly $hideBadge = atom(false);
  /** where the e-mail link was verified, for the wording of the success screen */
  readonly $linkVerifiedHere = atom(false);

  readonly #api: ApiClient;
  readonly #session: Session;
  readonly #projectId: string;
  readonly #window: Window;
  readonly #onComplete = new Set<(completion: Completion) => void>();
  #start: Promise<void> | undefined;
  #markRequested: () => void = () => undefined;
  readonly #requested = new Promise<void>((resolve) => (this.#markRequested = resolve));
  /** a replacement for an initial process, running in the background */
  #replacing: Promise<void> | undefined;
  #screenBeforeAbort: ScreenName | undefined;
  #historyAttached = 0;
  #pollTimer: ReturnType<typeof setTimeout> | undefined;
  #pollController: AbortController | undefined;
  #conditional: AbortController | undefined;
  /** settles once the autofill's ceremony has ended (a browser allows one ceremony at a time) */
  #conditionalSettled: Promise<unknown> = Promise.resolve();
  #socialFinishing = false;

  constructor(api: ApiClient, session: Session, projectId: string, environment: FlowEnvironment) {
    this.#api = api;
    this.#session = session;
    this.#projectId = projectId;
    this.#window = environment.window;
    this.$screen.listen((screen) => (screen === 'email-link-sent' ? this.#startPolling() : this.#stopPolling()));
  }

  // --- start-up --------------------------------------------------------------------------------

  /** Starts the process once; later calls share the same start. */
  start(): Promise<void> {
    this.#start ??= this.#startUp()
      .catch((error: unknown) => {
        this.$error.set(unhandledFrontendError(error));
        this.$initState.set(1);
      })
      .finally(this.#markRequested);
    return this.#start;
  }

  /**
   * Resolves once start-up has sent its first request (or ended). Views wait for it before their first
   * render, so rendering never delays the one round trip the first screen needs.
   */
  requested(): Promise<void> {
    return this.#requested;
  }

  /** Starts over after a failed start (the component-unavailable page's reload button). */
  retry(): Promise<void> {
    this.#start = undefined;
    this.$initState.set(0);
    this.$error.set(undefined);
    return this.start();
  }

  async #startUp(): Promise<void> {
    const link = readEmailLink(this.#window.location.search);
    if (link) return this.#startFromEmailLink(link);

    const preferred = blockFromHash(this.#window.location.hash);
    const stored = readStoredProcess(this.#projectId);
    if (isProcessValid(stored)) {
      this.#api.processId = stored.id;
      this.#api.processBaseUrl = stored.frontendApiUrl || undefined;
      try {
        const pending = this.#api.getProcess(preferred);
        this.#markRequested();
        const response = await pending;
        this.#apply(response);
        const block = this.$block.get();
        if (block && isInitialBlock(block)) this.#replacing = this.#replaceInitial();
        this.$initState.set(2);
        return;
      } catch (error) {
        if (error instanceof RequestCancelled) return;
        // a stored process that cannot be loaded is replaced, without a preferred block
        return this.#initProcess(undefined);
      }
    }
    return this.#initProcess(preferred);
  }

  /** `stayOn` names, when the answer arrives, the init block the visitor is to stay on (see #apply). */
  async #initProcess(preferredBlock: string | undefined, stayOn?: () => BlockType | undefined): Promise<void> {
    this.#api.processId = undefined;
    this.#api.processBaseUrl = undefined;
    const shown = Number(readItem(storageKeys.passkeyAppendShown));
    const pending = this.#api.processInit({
      clientInformation: await clientInformation(readItem(storageKeys.clientHandle)),
      passkeyAppendShown: Number.isFinite(shown) && shown > 0 ? shown : undefined,
      preferredBlock,
    });
    this.#markRequested();
    const response = await pending;
    if (response.newClientEnvHandle) writeItem(storageKeys.clientHandle, response.newClientEnvHandle);
    this.#adopt(response.token, response.expiresAt, response.processResponse.common.frontendApiUrl);
    this.#apply(response.processResponse, { stayOn: stayOn?.() });
    this.$initState.set(2);
  }

  /**
   * An initial process (nothing entered yet) is replaced by a fresh one. The stored one is shown at
   * once so the visitor can start typing; actions wait for the replacement.
   */
  async #replaceInitial(): Promise<void> {
    try {
      // what is shown when the replacement arrives, which a sign-up view may have switched meanwhile
      await this.#initProcess(undefined, () => this.$block.get()?.type);
    } catch {
      // the stored process stays usable
    } finally {
      this.#replacing = undefined;
    }
  }

  async #startFromEmailLink(link: EmailLinkEntry): Promise<void> {
    const stored = readStoredProcess(this.#projectId);
    const isNewDevice = stored?.id !== link.process.id;
    this.#window.history.replaceState(this.#window.history.state, '', withoutEmailLinkParams(this.#window.location.href));
    this.#api.processId = link.process.id;
    this.#api.processBaseUrl = link.process.frontendApiUrl || undefined;
    this.#setBlock({
      type: 'email-verify',
      authType: link.authType,
      data: { ...link.blockData, verificationMethod: 'email-link' },
      alternatives: [],
    });
    this.$screen.set('email-link-verification');
    this.$initState.set(2);
    if (!link.token) {
      this.$ceremonyError.set(emailLinkTokenMissing());
      return;
    }
    await this.#run(async () => {
      const response = await this.#api.verifyFinish('email', 'email-link', link.token, isNewDevice);
      if (!isNewDevice && link.process.expires) {
        this.#adopt(link.process.id, link.process.expires, link.process.frontendApiUrl ?? '');
      }
      this.#apply(response, { keepScreen: true });
      // the link's verdict: an error stays on this screen, anything else moves on
      const block = this.$block.get();
      if (!block || block.type === 'completed' || (block.type === 'email-verify' && block.data.error)) return;
      this.$screen.set(initialScreen(block.type, verificationMethodOf(block)));
    });
  }

  /** A view that prefers the sign-up or log-in screen switches to it locally once the process is there. */
  async prefer(type: 'signup-init' | 'login-init'): Promise<void> {
    await this.start();
    const block = this.$block.get();
    if (block && block.type !== type && (block.type === 'signup-init' || block.type === 'login-init')) {
      this.#switchLocally(type);
    }
  }

  // --- applying server answers -----------------------------------------------------------------

  #adopt(token: string, expiresAt: number, frontendApiUrl: string): void {
    this.#api.processId = token;
    this.#api.processBaseUrl = frontendApiUrl || undefined;
    writeStoredProcess(this.#projectId, { id: token, expiresAt, frontendApiUrl });
  }

  /**
   * Shows the server's answer. stayOn keeps the visitor on sign-up or log-in when the server's process
   * is on the other one (they switched locally, through its alternatives).
   */
  #apply(response: ProcessResponse, options: { keepScreen?: boolean; stayOn?: BlockType } = {}): void {
    this.#applyProcess(response);
    let block = parseBlock(response.blockBody);
    if (options.stayOn && INIT_BLOCKS.includes(block.type)) block = switchTo(block, options.stayOn) ?? block;
    if (block.type === 'completed') return this.#complete(block);
    if (block.type === 'passkey-append' && block.authType === 'login') {
      writeItem(storageKeys.passkeyAppendShown, String(nowSeconds()));
    }
    this.#setBlock(block, options.keepScreen);
    const social = block.data.socialData as SocialData | undefined;
    if (social?.status === 'finished' && !block.data.error && !this.#socialFinishing) void this.#finishSocial();
  }

  /** What an answer says beyond its block: the project's common settings, and a new process to adopt. */
  #applyProcess(response: ProcessResponse): void {
    const common = response.common;
    if (common) {
      this.$appName.set(common.appName ?? '');
      this.$hideBadge.set(!!common.hideBadge);
    }
    if (response.newProcess) {
      this.#adopt(response.newProcess.token, response.newProcess.expiresAt, common?.frontendApiUrl ?? '');
    }
  }

  #setBlock(block: FlowBlock, keepScreen = false): void {
    const previous = this.$block.get();
    this.$block.set(block);
    if (!keepScreen && previous?.type !== block.type) {
      this.$screen.set(initialScreen(block.type, verificationMethodOf(block)));
    }
    if (previous?.type !== block.type) this.#mirrorHash(block.type, !previous);
  }

  #mirrorHash(type: BlockType, first: boolean): void {
    if (!this.#historyAttached || !pushesHistory(type)) return;
    const hash = hashForBlock(type);
    if (blockFromHash(this.#window.location.hash) === type) return;
    const url = this.#window.location.pathname + this.#window.location.search + hash;
    if (first) this.#window.history.replaceState(this.#window.history.state, '', url);
    else this.#window.history.pushState(null, '', url);
  }

  #complete(block: FlowBlock): void {
    const data = block.data as unknown as CompletedData;
    writeStoredProcess(this.#projectId, undefined);
    this.#api.processId = undefined;
    if (data.shortSession) this.#session.setSession(data.shortSession, data.longSession);
    if (block.authType === 'login') writeItem(storageKeys.passkeyAppendShown, undefined);
    writeItem(storageKeys.socialLogin, undefined);
    this.$block.set(block);
    this.$screen.set('end');
    for (const listener of [...this.#onComplete]) listener({ authType: block.authType });
  }

  onComplete(listener: (completion: Completion) => void): () => void {
    this.#onComplete.add(listener);
    return () => this.#onComplete.delete(listener);
  }

  /** After a logout, a view that is still mounted starts again from a fresh process. */
  async restartIfCompleted(): Promise<void> {
    if (this.$block.get()?.type !== 'completed') return;
    await this.#run(() => this.#initProcess(undefined));
  }

  // --- running actions -------------------------------------------------------------------------

  /** One user intent at a time; it clears the error shown, unless it is not the visitor's (`keepError`). */
  async #run(action: () => Promise<void>, keepError = false): Promise<void> {
    if (this.$busy.get()) return;
    this.$busy.set(true);
    if (!keepError) this.$error.set(undefined);
    try {
      if (this.#replacing) await this.#replacing;
      await action();
    } catch (error) {
      await this.#recover(error);
    } finally {
      this.$busy.set(false);
    }
  }

  async #recover(error: unknown): Promise<void> {
    if (error instanceof RequestCancelled) return;
    const failure = error instanceof CorbadoError ? error : unhandledFrontendError(error);
    // a frontend error leaves the process as it is, and so does a rate limit: the server changed nothing
    if (failure.kind !== 'unhandledFrontendError' && failure.kind !== 'tooManyRequests') await this.#reload(failure);
    this.$error.set(failure);
  }

  /**
   * Loads the process again after a failed call, or starts a new one when the server no longer knows
   * it. While the server cannot be reached (down, too slow, offline), the visitor stays on the screen
   * they were on with what they typed, and tries again.
   */
  async #reload(failure: CorbadoError): Promise<void> {
    const shown = this.$block.get();
    const stayOn = shown && INIT_BLOCKS.includes(shown.type) ? shown.type : undefined;
    let lost = failure.kind === 'processNotFound';
    try {
      if (!lost) return this.#apply(await this.#api.getProcess(), { stayOn });
    } catch (error) {
      lost = error instanceof CorbadoError && error.kind === 'processNotFound';
    }
    try {
      if (lost) return await this.#initProcess(undefined, () => stayOn);
    } catch {
      // unreachable as well: handled below
    }
    // only a flow with nothing left to show falls back to the component-unavailable page
    if (!shown || shown.type === 'completed') this.$initState.set(1);
  }

  dismissError(): void {
    this.$error.set(undefined);
    const block = this.$block.get();
    if (!block) return;
    const { error: dataError, ...data } = block.data;
    const isInit = block.type === 'signup-init' || block.type === 'login-init';
    if (block.error || (isInit && dataError)) this.$block.set({ ...block, error: undefined, data: isInit ? data : block.data });
  }

  setScreen(screen: ScreenName): void {
    this.$screen.set(screen);
  }

  // --- switching and aborting ------------------------------------------------------------------

  #switchLocally(type: BlockType): boolean {
    const block = this.$block.get();
    if (!block || block.type === type) return !!block;
    const next = switchTo(block, type);
    if (!next) return false;
    this.#setBlock(next);
    return true;
  }

  /** Sign-up <-> log-in through the block's alternatives, without a server call. */
  switchToAlternative(type: BlockType): void {
    this.$error.set(undefined);
    this.#switchLocally(type);
  }

  /** Keeps the flow in step with the address bar; views that show the flow attach while mounted. */
  attachHistory(): () => void {
    if (this.#historyAttached++ === 0) {
      this.#window.addEventListener('popstate', this.#onPopState);
      const block = this.$block.get();
      if (block) this.#mirrorHash(block.type, true);
    }
    return () => {
      if (--this.#historyAttached === 0) this.#window.removeEventListener('popstate', this.#onPopState);
    };
  }

  readonly #onPopState = () => {
    const block = this.$block.get();
    const target = blockFromHash(this.#window.location.hash);
    if (!block || !target || target === block.type || this.$busy.get()) return;
    if (this.#switchLocally(target as BlockType)) return;
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
    if (block && blockFromHash(this.#window.location.hash) !== block.type) this.#window.history.forward();
  }

  /** Resets the process: entered data is lost; the new process may start on the block the address names. */
  abort(target?: string): Promise<void> {
    this.#screenBeforeAbort = undefined;
    return this.#run(async () => {
      this.#apply(await this.#api.resetProcess());
      if (target) this.#switchLocally(target as BlockType);
    });
  }

  // --- sign-up and log-in ----------------------------------------------------------------------

  submitSignup(fields: { fullName?: string; email?: string; phone?: string; username?: string }): Promise<void> {
    return this.#run(async () => {
      const identifiers: { type: IdentifierType; identifier: string }[] = [];
      if (fields.email) identifiers.push({ type: 'email', identifier: fields.email });
      if (fields.phone) identifiers.push({ type: 'phone', identifier: fields.phone });
      if (fields.username) identifiers.push({ type: 'username', identifier: fields.username });
      this.#apply(await this.#api.signupInit(identifiers, fields.fullName || undefined));
    });
  }

  /**
   * The log-in after the identifier. For an account with a passkey the server answers passkey-verify;
   * in a browser without WebAuthn, where no passkey can be used, the visitor goes on to the block's
   * first fallback (a code or link) at once, never shown a passkey screen that can only fail.
   */
  submitLogin(identifierValue: string, isPhone: boolean): Promise<void> {
    return this.#run(async () => {
      const response = await this.#api.loginInit(identifierValue, isPhone);
      const block = response.blockBody.block === 'passkey-verify' && !webAuthnSupported() ? parseBlock(response.blockBody) : undefined;
      const fallback = block && !block.error ? this.fallbacks(block)[0] : undefined;
      if (!fallback) return this.#apply(response);
      this.#applyProcess(response);
      this.#apply(await this.#api.verifyStart(fallback.identifierType, fallback.method));
    });
  }

  startSocial(provider: SocialProvider): Promise<void> {
    return this.#run(async () => {
      const block = this.$block.get();
      const redirectUrl = this.#window.location.origin + this.#window.location.pathname;
      const response = await this.#api.socialStart(provider, redirectUrl, block?.authType ?? 'signup');
      const social = response.blockBody.data?.socialData as SocialData | undefined;
      if (social?.status === 'started' && social.oauthUrl) {
        writeItem(storageKeys.socialLogin, provider);
        this.#window.location.assign(social.oauthUrl);
        return;
      }
      this.#apply(response);
    });
  }

  async #finishSocial(): Promise<void> {
    this.#socialFinishing = true;
    try {
      await this.#run(async () => this.#apply(await this.#api.socialFinish()));
    } finally {
      this.#socialFinishing = false;
    }
  }

  collectUsername(username: string): Promise<void> {
    return this.#run(async () => this.#apply(await this.#api.usernameCollect(username)));
  }

  collectPhone(phone: string): Promise<void> {
    return this.#run(async () => this.#apply(await this.#api.phoneCollect(phone)));
  }

  // --- passkeys --------------------------------------------------------------------------------

  /** Fallback buttons: only the verification methods the block's alternatives offer. */
  fallbacks(block = this.$block.get()): Fallback[] {
    if (!block) return [];
    return block.alternatives.flatMap((alternative): Fallback[] => {
      if (alternative.type === 'email-verify') {
        return [{ method: verificationMethodOf(alternative) ?? 'email-otp', identifierType: 'email' }];
      }
      if (alternative.type === 'phone-verify') return [{ method: 'phone-otp', identifierType: 'phone' }];
      return [];
    });
  }

  /** Passkey append can be skipped when a completed alternative exists. */
  canSkip(block = this.$block.get()): boolean {
    return !!block?.alternatives.some((a) => a.type === 'completed');
  }

  appendPasskey(): Promise<void> {
    return this.#run(async () => {
      this.$ceremonyError.set(undefined);
      const start = await this.#api.passkeyAppendStart();
      if (start.blockBody.error || start.blockBody.block !== 'passkey-append') return this.#apply(start, { keepScreen: true });
      const options = String(start.blockBody.data.challenge ?? '');
      let signed: string;
      try {
        signed = await createPasskey(options);
      } catch (error) {
        if (error instanceof CorbadoError && error.kind === 'passkeyAlreadyExists') {
          void this.#event('append-credential-exists', options);
          return this.#apply(await this.#api.completeProcess());
        }
        void this.#event('append-error', options);
        this.$ceremonyError.set(error instanceof CorbadoError ? error : passkeyChallengeCancelled());
        this.$screen.set('passkey-error');
        return;
      }
      this.#apply(await this.#api.passkeyAppendFinish(signed));
    });
  }

  /**
   * The passkey log-in of passkey-verify. Started by the screen itself (`automatic`), it leaves an error
   * that led there on display: the visitor has not acted yet.
   */
  loginWithPasskey(options: { automatic?: boolean } = {}): Promise<void> {
    return this.#run(async () => {
      this.$ceremonyError.set(undefined);
      const start = await this.#api.passkeyLoginStart();
      if (start.blockBody.error || start.blockBody.block !== 'passkey-verify') return this.#apply(start, { keepScreen: true });
      const options = String(start.blockBody.data.challenge ?? '');
      let signed: string;
      try {
        // the autofill's request must have ended first, however this screen was reached
        this.stopConditionalUi();
        await this.#conditionalSettled;
        signed = await getPasskey(options);
      } catch (error) {
        void this.#event('login-error', options);
        this.$ceremonyError.set(error instanceof CorbadoError ? error : passkeyChallengeCancelled());
        this.$screen.set('passkey-error');
        return;
      }
      this.#apply(await this.#api.passkeyLoginFinish(signed));
    }, options.automatic);
  }

  /**
   * Conditional UI: offers passkeys in the identifier field's autofill while login-init is shown.
   * Cancelled and other ignorable ceremony errors are swallowed.
   */
  async startConditionalUi(): Promise<void> {
    const block = this.$block.get();
    const challenge = block?.type === 'login-init' ? (block.data.conditionalUIChallenge as string | undefined) : undefined;
    if (!challenge) return;
    this.#conditional?.abort();
    const controller = (this.#conditional = new AbortController());
    let signed: string;
    try {
      const ceremony = getPasskey(challenge, true, controller.signal);
      this.#conditionalSettled = ceremony.catch(() => undefined);
      signed = await ceremony;
    } catch {
      return;
    }
    if (controller.signal.aborted) return;
    await this.#run(async () => this.#apply(await this.#api.passkeyMediationFinish(signed)));
  }

  stopConditionalUi(): void {
    this.#conditional?.abort();
    this.#conditional = undefined;
  }

  /** "Maybe later" on passkey-append: the process completes without a passkey. */
  skipPasskey(): Promise<void> {
    return this.#run(async () => {
      void this.#event('append-explicit-abort');
      this.#apply(await this.#api.completeProcess());
    });
  }

  /** Continue on passkey-appended (and any other skippable step): on to the next block. */
  skipBlock(): Promise<void> {
    return this.#run(async () => this.#apply(await this.#api.skipBlock()));
  }

  /** A fallback button: verify the identifier with a one-time code or link instead of a passkey. */
  useFallback(fallback: Fallback): Promise<void> {
    return this.#run(async () => {
      const block = this.$block.get();
      void this.#event(block?.type === 'passkey-verify' ? 'login-explicit-abort' : 'append-explicit-abort');
      this.#apply(await this.#api.verifyStart(fallback.identifierType, fallback.method));
    });
  }

  async #event(eventType: string, challenge?: string): Promise<void> {
    try {
      await this.#api.event(eventType, challenge);
    } catch {
      // events are fire-and-forget
    }
  }

  // --- one-time codes and links ----------------------------------------------------------------

  #verification(): { identifierType: IdentifierType; method: VerificationMethod } {
    const block = this.$block.get();
    const method = (block && verificationMethodOf(block)) ?? (block?.type === 'phone-verify' ? 'phone-otp' : 'email-otp');
    return { identifierType: method === 'phone-otp' ? 'phone' : 'email', method };
  }

  submitCode(code: string): Promise<void> {
    return this.#run(async () => {
      const { identifierType, method } = this.#verification();
      this.#apply(await this.#api.verifyFinish(identifierType, method, code, false));
    });
  }

  /** Resend restarts the code or link verification; in link mode the polling restarts too. */
  resend(): Promise<void> {
    return this.#run(async () => {
      const { identifierType, method } = this.#verification();
      this.#apply(await this.#api.verifyStart(identifierType, method), { keepScreen: true });
      if (this.$screen.get() === 'email-link-sent') this.#startPolling();
    });
  }

  /**
   * Edits the identifier being verified (or, on passkey-append, the one the passkey is for). An
   * unchanged value returns without a call; during log-in, editing aborts the process instead.
   * Answers the server's field error, if any, for the edit screen to show.
   */
  async updateIdentifier(identifierType: IdentifierType, value: string): Promise<RequestError | undefined> {
    const block = this.$block.get();
    if (!block) return undefined;
    const back = block.type === 'passkey-append' ? 'passkey-append' : initialScreen(block.type, verificationMethodOf(block));
    const current = block.type === 'passkey-append' ? block.data.identifierValue : block.data.identifier;
    if (value === current) {
      this.$screen.set(back);
      return undefined;
    }
    let fieldError: RequestError | undefined;
    await this.#run(async () => {
      const response = await this.#api.identifierUpdate(identifierType, value);
      if (response.blockBody.error) {
        fieldError = response.blockBody.error;
        return;
      }
      if (block.type === 'passkey-append') {
        this.#apply(response, { keepScreen: true });
      } else {
        const { method } = this.#verification();
        this.#apply(await this.#api.verifyStart(identifierType, method), { keepScreen: true });
      }
      this.$screen.set(back);
    });
    return fieldError;
  }

  // --- e-mail link status polling --------------------------------------------------------------

  #startPolling(): void {
    this.#stopPolling();
    const controller = (this.#pollController = new AbortController());
    let polls = 0;
    const poll = async () => {
      if (controller.signal.aborted || polls++ >= EMAIL_POLL_MAX) return;
      try {
        const response = await this.#api.verifyStatus(controller.signal);
        if (controller.signal.aborted) return;
        const body = response.blockBody;
        if (body.continueOnOtherDevice) {
          // verified and finished in another tab of this browser
          this.$linkVerifiedHere.set(false);
          this.#apply(response);
          return;
        }
        if (body.block !== 'email-verify' && body.block !== 'post-signup-email-verify') {
          this.$linkVerifiedHere.set(true);
          this.#apply(response);
          if (this.$block.get()?.type !== 'completed') this.$screen.set('email-link-success');
          return;
        }
      } catch {
        // a failed poll is retried at the next tick
      }
      if (!controller.signal.aborted) this.#pollTimer = setTimeout(poll, EMAIL_POLL_INTERVAL_MS);
    };
    this.#pollTimer = setTimeout(poll, EMAIL_POLL_INTERVAL_MS);
  }

  #stopPolling(): void {
    clearTimeout(this.#pollTimer);
    this.#pollController?.abort();
    this.#pollController = undefined;
  }

  /** The email-link-success screen's continue: the block the process advanced to. */
  continueAfterLink(): void {
    const block = this.$block.get();
    if (block) this.$screen.set(initialScreen(block.type, verificationMethodOf(block)));
  }

  dispose(): void {
    this.#stopPolling();
    this.stopConditionalUi();
    this.#window.removeEventListener('popstate', this.#onPopState);
    this.#historyAttached = 0;
  }
}

