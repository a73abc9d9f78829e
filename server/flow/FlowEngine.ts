// The flow engine: one method per process call, each handing over to the module of its area (sign-up,
// log-in, verification, passkeys, social, completion and the process lifecycle). Every call on a
// process runs in one transaction that holds the process locked, so concurrent calls on one process
// (from any instance sharing the database) run one after the other.
import { ApiError } from '../ApiError.ts';
import type { ProjectConfig } from '../config/projectConfig.ts';
import { sha256Hex } from '../randomValues.ts';
import type { PreparedProvider } from '../social/SocialProviders.ts';
import type { ProcessRecord } from '../store/ProcessesRepo.ts';
import type { ProcessResponse } from './blockBodies.ts';
import { FlowContext, type FlowDeps, type FlowOutcome, type FlowRequest } from './FlowContext.ts';
import { completeProcess, getProcess, initProcess, resetProcess, skipBlock, type ProcessInitBody } from './lifecycle.ts';
import { answerLink, declined, openLink, type LinkAnswer } from './linkApproval.ts';
import { loginInit, type LoginInitBody } from './login.ts';
import { mediationFinish, passkeyAppendFinish, passkeyAppendStart, passkeyLoginFinish, passkeyLoginStart } from './passkeys.ts';
import { collect, signupInit, updateIdentifier, type IdentifierUpdateBody, type SignupInitBody } from './signup.ts';
import { socialCallback, socialFinish, socialGo, socialStart, type SocialCallbackOutcome, type SocialCallbackQuery, type SocialStartBody } from './social.ts';
import { alreadyCompleted, respond } from './transitions.ts';
import { linkExpired, verifyFinish, verifyStart, type VerifyFinishBody, type VerifyStartBody } from './verification.ts';

export type { FlowDeps, FlowOutcome, FlowRequest } from './FlowContext.ts';
export type { SocialCallbackOutcome } from './social.ts';
export type { LinkAnswer } from './linkApproval.ts';

/** An e-mail link as its page hands it over: the process it names (its id) and its token. */
export interface LinkCall {
  process: string;
  token: string;
}

export class FlowEngine {
  constructor(private readonly deps: FlowDeps) {}

  async initProcess(
    request: Omit<FlowRequest, 'processToken'>,
    body: ProcessInitBody,
  ): Promise<{ token: string; expiresAt: number; response: ProcessResponse }> {
    await this.perClient(request, 'processInitsPerIp');
    return initProcess(this.deps, request, body);
  }

  getProcess(request: FlowRequest, preferredBlock: string | undefined): Promise<FlowOutcome> {
    return this.run(request, (ctx) => getProcess(ctx, preferredBlock));
  }

  resetProcess(request: FlowRequest): Promise<FlowOutcome> {
    return this.run(request, resetProcess, { afterCompletion: true });
  }

  completeProcess(request: FlowRequest): Promise<FlowOutcome> {
    return this.run(request, completeProcess);
  }

  skipBlock(request: FlowRequest): Promise<FlowOutcome> {
    return this.run(request, skipBlock);
  }

  /**
   * The status poll of the e-mail link screen: the current block, the next one once verified, or the
   * block with the expired-link error once the link has expired unused (the tab stops waiting then).
   */
  verificationStatus(request: FlowRequest): Promise<FlowOutcome> {
    return this.run(request, async (ctx) => respond(ctx, (await linkExpired(ctx)) ? { dataError: ctx.error('invalid_challenge_solution_email-link') } : {}));
  }

  /** An e-mail link's page load: verified in the browser that asked, described anywhere else (linkApproval.ts). */
  openLink(request: FlowRequest, link: LinkCall): Promise<FlowOutcome> {
    return this.runOnLink(request, link, (ctx, holdsProcess) => openLink(ctx, link.token, holdsProcess));
  }

  /** The answer of the person at an e-mail link opened in another browser. */
  answerLink(request: FlowRequest, link: LinkCall, answer: LinkAnswer): Promise<FlowOutcome> {
    return this.runOnLink(request, link, (ctx) => answerLink(ctx, link.token, answer));
  }

  /** Checks that the request names a live process of its project (calls that change nothing: events). */
  async requireProcess(request: FlowRequest): Promise<void> {
    await this.load(request);
  }

  signupInit(request: FlowRequest, body: SignupInitBody): Promise<FlowOutcome> {
    return this.run(request, (ctx) => signupInit(ctx, body));
  }

  collect(request: FlowRequest, type: 'username' | 'phone', value: string): Promise<FlowOutcome> {
    return this.run(request, (ctx) => collect(ctx, type, value));
  }

  updateIdentifier(request: FlowRequest, body: IdentifierUpdateBody): Promise<FlowOutcome> {
    return this.run(request, (ctx) => updateIdentifier(ctx, body));
  }

  verifyStart(request: FlowRequest, body: VerifyStartBody): Promise<FlowOutcome> {
    return this.run(request, (ctx) => verifyStart(ctx, body));
  }

  verifyFinish(request: FlowRequest, body: VerifyFinishBody): Promise<FlowOutcome> {
    return this.run(request, (ctx) => verifyFinish(ctx, body));
  }

  async loginInit(request: FlowRequest, body: LoginInitBody): Promise<FlowOutcome> {
    await this.perClient(request, 'loginInitsPerIp');
    return this.run(request, (ctx) => loginInit(ctx, body));
  }

  async passkeyAppendStart(request: FlowRequest): Promise<FlowOutcome> {
    await this.perClient(request, 'passkeyStartsPerIp');
    return this.run(request, passkeyAppendStart);
  }

  passkeyAppendFinish(request: FlowRequest, signedChallenge: string): Promise<FlowOutcome> {
    return this.run(request, (ctx) => passkeyAppendFinish(ctx, signedChallenge));
  }

  async passkeyLoginStart(request: FlowRequest): Promise<FlowOutcome> {
    await this.perClient(request, 'passkeyStartsPerIp');
    return this.run(request, passkeyLoginStart);
  }

  passkeyLoginFinish(request: FlowRequest, signedChallenge: string): Promise<FlowOutcome> {
    return this.run(request, (ctx) => passkeyLoginFinish(ctx, signedChallenge));
  }

  mediationFinish(request: FlowRequest, signedChallenge: string): Promise<FlowOutcome> {
    return this.run(request, (ctx) => mediationFinish(ctx, signedChallenge));
  }

  /**
   * `browser`: the secret of the browser's binding cookie (the route makes one where there is none).
   * The provider is made ready (discovery, the project's client) before the process is locked: a
   * network call holds no transaction.
   */
  async socialStart(request: FlowRequest, body: SocialStartBody, browser: string): Promise<FlowOutcome> {
    let prepared: PreparedProvider | undefined;
    if (request.project.socialProviders.includes(body.providerType)) {
      try {
        prepared = await this.deps.social.prepare(body.providerType, request.project.id, request.frontendApiUrl);
      } catch (error) {
        this.deps.log?.error(`social sign-in with ${body.providerType} cannot start for ${request.project.id}`, error instanceof Error ? error.message : error);
      }
    }
    return this.run(request, (ctx) => socialStart(ctx, body, { prepared, browser }));
  }

  /** `browser`: the binding cookie the callback's browser sent, if any. */
  socialCallback(query: SocialCallbackQuery, browser: string | undefined): Promise<SocialCallbackOutcome> {
    return socialCallback(this.deps, query, browser);
  }

  /** `result`: across sites, the result secret the callback returned to the page with */
  socialFinish(request: FlowRequest, result?: string): Promise<FlowOutcome> {
    return this.run(request, (ctx) => socialFinish(ctx, result));
  }

  /** The first-party start of a round trip begun on another site (flow/social.ts). */
  socialGo(processId: string | undefined, browser: string | undefined): Promise<{ redirect: string; browser: string } | undefined> {
    return socialGo(this.deps, processId, browser);
  }

  private perClient(request: { project: ProjectConfig; clientIp: string }, limit: 'processInitsPerIp' | 'loginInitsPerIp' | 'passkeyStartsPerIp') {
    return this.deps.limiter.take(request.project, [{ limit, subject: request.clientIp }]);
  }

  /**
   * Runs an action on the request's process, locked for the whole transaction. An unknown, foreign,
   * ended or expired process is `process_not_available`; a completed one answers "continue where it
   * completed" to everything but `afterCompletion` calls.
   */
  private run(request: FlowRequest, action: (ctx: FlowContext) => Promise<FlowOutcome>, options: { afterCompletion?: boolean } = {}): Promise<FlowOutcome> {
    return this.deps.store.transaction(async () => {
      const ctx = new FlowContext(this.deps, request, await this.load(request));
      return savedOnce(ctx, () => this.#dispatch(ctx, action, options));
    });
  }

  async #dispatch(ctx: FlowContext, action: (ctx: FlowContext) => Promise<FlowOutcome>, options: { afterCompletion?: boolean }): Promise<FlowOutcome> {
    if (options.afterCompletion) return action(ctx);
    if (ctx.state.deliveredAt !== null) {
      // "continue where it completed" is only true while the session it handed out lasts: after a
      // log-out (or a revocation) a tab that kept the process starts a new one instead
      if (await this.sessionEnded(ctx.state.sessionId)) throw ApiError.processNotAvailable('The session this process handed out has ended');
      return alreadyCompleted(ctx);
    }
    // declined at its e-mail link: the process is over but for a reset, and its tab says why
    if (ctx.state.linkDeclinedAt) return declined(ctx);
    return action(ctx);
  }

  /**
   * Runs an action on the process an e-mail link names by its id, locked for the whole transaction.
   * `holdsProcess`: the request also named it by its token (X-Corbado-Process-ID), as only the browser
   * that started it can.
   */
  private runOnLink(request: FlowRequest, link: LinkCall, action: (ctx: FlowContext, holdsProcess: boolean) => Promise<FlowOutcome>): Promise<FlowOutcome> {
    return this.deps.store.transaction(async () => {
      const process = this.live(await this.deps.store.processes.lock(link.process), request);
      const holdsProcess = !!request.processToken && process.tokenHash === sha256Hex(request.processToken);
      const ctx = new FlowContext(this.deps, request, process);
      return savedOnce(ctx, () => action(ctx, holdsProcess));
    });
  }

  /** Whether the session a completed process handed out has ended (a process completed before it was kept: no). */
  private async sessionEnded(sessionId: string | undefined): Promise<boolean> {
    if (!sessionId) return false;
    const session = await this.deps.store.sessions.get(sessionId);
    return !session || session.revokedAt !== null || session.expiresAt <= this.deps.now();
  }

  /** The request's process (locked when inside a transaction). */
  private async load(request: FlowRequest): Promise<ProcessRecord> {
    return this.live(await this.deps.store.processes.lockByTokenHash(sha256Hex(request.processToken)), request);
  }

  /** The process, if it is one of the request's project and neither ended nor expired. */
  private live(process: ProcessRecord | undefined, request: FlowRequest): ProcessRecord {
    if (!process || process.projectId !== request.project.id) throw ApiError.processNotAvailable('Unknown process');
    if (process.endedAt !== null || process.expiresAt <= this.deps.now()) throw ApiError.processNotAvailable('The process has expired');
    return process;
  }
}

/** Runs an action whose saves of the process's state are written once, at its end (FlowContext.deferSaves). */
async function savedOnce(ctx: FlowContext, action: () => Promise<FlowOutcome>): Promise<FlowOutcome> {
  ctx.deferSaves();
  const outcome = await action();
  ctx.flush();
  return outcome;
}
