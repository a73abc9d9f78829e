// One loaded widget: options, API client, session and auth process, created by Corbado.load().
import { Account } from './account/account';
import { ApiClient, DEFAULT_TIMEOUT } from './api/client';
import type { SessionConfig } from './api/types';
import { setDarkMode, type DarkMode } from './appearance';
import { invalidProjectId } from './errors';
import { configureI18n, type CustomTranslations } from './i18n/i18n';
import { Flow } from './process/flow';
import { Session } from './session/session';

export interface CorbadoOptions {
  /** "pro-" followed by digits */
  projectId: string;
  /** default https://<projectId>.<frontendApiUrlSuffix> */
  frontendApiUrl?: string;
  /** web-js 3: the host suffix of the default Frontend API address (default frontendapi.corbado.io) */
  frontendApiUrlSuffix?: string;
  /** milliseconds, default 30000 */
  apiTimeout?: number;
  defaultLanguage?: string;
  autoDetectLanguage?: boolean;
  customTranslations?: CustomTranslations;
  darkMode?: DarkMode;
  /** a class name for the host elements (its CSS custom properties reach into the widget), or the properties themselves */
  theme?: string | Record<string, string>;
  customerSupportEmail?: string;
  /** preview mode: sends the "preview" flag */
  isDevMode?: boolean;
  /** also keep the short session in a cookie (off by default) */
  setShortSessionCookie?: boolean;
  /** offer the account last logged in on this browser first (default true); false keeps nothing */
  rememberLastUser?: boolean;
}

/** pro-1, pro-1000 …; `pro-console` is the operators' console's own project (its sign-in page mounts this widget) */
export const PROJECT_ID = /^pro-(?:\d+|console)$/;

export class CorbadoApp {
  readonly options: CorbadoOptions;
  readonly api: ApiClient;
  readonly session: Session;
  readonly flow: Flow;
  readonly account: Account;
  readonly sessionConfig: Promise<SessionConfig | undefined>;

  constructor(options: CorbadoOptions, window: Window) {
    if (typeof options?.projectId !== 'string' || !PROJECT_ID.test(options.projectId)) throw invalidProjectId();
    this.options = options;
    this.api = new ApiClient({
      projectId: options.projectId,
      frontendApiUrl: (options.frontendApiUrl ?? `https://${options.projectId}.${options.frontendApiUrlSuffix ?? 'frontendapi.corbado.io'}`).replace(
        /\/+$/,
        '',
      ),
      timeout: options.apiTimeout ?? DEFAULT_TIMEOUT,
      preview: !!options.isDevMode,
    });
    // the session configuration and the auth process start together, at load time
    this.sessionConfig = this.api.sessionConfig().catch(() => undefined);
    this.session = new Session(this.api, this.sessionConfig, !!options.setShortSessionCookie);
    this.flow = new Flow(this.api, this.session, options.projectId, { window, rememberLastUser: options.rememberLastUser });
    this.account = new Account(this.api, this.session);
    // a session ended in another tab or refused by the server leaves no completed view behind
    this.session.onEnded(() => void this.flow.restartIfCompleted());
  }

  start(): void {
    this.session.start();
    // a logged-in visitor (or one being signed back in) needs no auth process until an auth view asks for one
    if (!this.session.$shortSession.get() && !this.session.$restoring.get()) void this.flow.start();
    // after the start-up requests have left: they need neither (a media query can cost a style pass)
    configureI18n(this.options);
    setDarkMode(this.options.darkMode ?? 'auto');
  }

  /** Logs out on the server and here; a mounted auth view starts over. */
  async logout(): Promise<void> {
    await this.session.logout();
    await this.flow.restartIfCompleted();
  }

  /** Deletes the account (throws when the server refuses); the session ends and a mounted auth view starts over. */
  async deleteAccount(): Promise<void> {
    await this.account.deleteAccount();
    // an account that is gone is not offered again
    this.flow.forgetLastUser();
    await this.flow.restartIfCompleted();
  }

  dispose(): void {
    this.session.stop();
    this.flow.dispose();
  }
}
