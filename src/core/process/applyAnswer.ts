// Shows what the server answered: the block and its first screen, a new process to keep, or the
// completed block that hands over the session.
import type { BlockType, CompletedData, ProcessResponse, SocialData } from '../api/types';
import { nowSeconds, readStoredProcess, storageKeys, writeItem, writeStoredProcess } from '../storage';
import { parseBlock, switchTo, verificationMethodOf, type FlowBlock } from './block';
import { INIT_BLOCKS, type FlowContext } from './flowContext';
import { mirrorHash } from './hashMirror';
import { noteMethod, rememberLastUser } from './lastUser';
import { initialScreen } from './screens';

/** Keeps a process: the API client names it from now on, and the next start-up finds it stored. */
export function adopt(ctx: FlowContext, token: string, expiresAt: number, frontendApiUrl: string): void {
  ctx.api.processId = token;
  ctx.api.processBaseUrl = frontendApiUrl || undefined;
  writeStoredProcess(ctx.projectId, { id: token, expiresAt, frontendApiUrl });
}

/**
 * Shows the server's answer. stayOn keeps the visitor on sign-up or log-in when the server's process
 * is on the other one (they switched locally, through its alternatives).
 */
export function applyAnswer(ctx: FlowContext, response: ProcessResponse, options: { keepScreen?: boolean; stayOn?: BlockType } = {}): void {
  applyProcess(ctx, response);
  let block = parseBlock(response.blockBody);
  rememberBlock(ctx, block.type);
  noteMethod(ctx, ctx.$block.get());
  if (options.stayOn && INIT_BLOCKS.includes(block.type)) block = switchTo(block, options.stayOn) ?? block;
  if (block.type === 'completed') return complete(ctx, block);
  if (block.type === 'passkey-append' && block.authType === 'login') {
    writeItem(storageKeys.passkeyAppendShown, String(nowSeconds()));
  }
  setBlock(ctx, block, options.keepScreen);
  const social = block.data.socialData as SocialData | undefined;
  if (social?.status === 'finished' && !block.data.error && !ctx.socialFinishing) void ctx.hooks.finishSocial();
}

/** Notes the server's block with the stored process it belongs to (not a block the visitor switched to locally). */
function rememberBlock(ctx: FlowContext, type: BlockType): void {
  const stored = readStoredProcess(ctx.projectId);
  if (stored && stored.id === ctx.api.processId && stored.block !== type) writeStoredProcess(ctx.projectId, { ...stored, block: type });
}

/** What an answer says beyond its block: the project's common settings, and a new process to adopt. */
export function applyProcess(ctx: FlowContext, response: ProcessResponse): void {
  const common = response.common;
  if (common) {
    ctx.$appName.set(common.appName ?? '');
    ctx.$hideBadge.set(!!common.hideBadge);
  }
  if (response.newProcess) {
    adopt(ctx, response.newProcess.token, response.newProcess.expiresAt, common?.frontendApiUrl ?? '');
  }
}

/** Shows a block; a new block type starts on its first screen (unless `keepScreen`) and in the address. */
export function setBlock(ctx: FlowContext, block: FlowBlock, keepScreen = false): void {
  const previous = ctx.$block.get();
  ctx.$block.set(block);
  if (!keepScreen && previous?.type !== block.type) {
    // log-in offers the account this browser logged in last first
    ctx.$screen.set(block.type === 'login-init' && ctx.$lastUser.get() ? 'welcome-back' : initialScreen(block.type, verificationMethodOf(block)));
  }
  if (previous?.type !== block.type) mirrorHash(ctx, block.type, !previous);
}

function complete(ctx: FlowContext, block: FlowBlock): void {
  const data = block.data as unknown as CompletedData;
  writeStoredProcess(ctx.projectId, undefined);
  ctx.api.processId = undefined;
  if (data.shortSession) void ctx.session.signedIn(data.shortSession, data.longSession);
  if (block.authType === 'login') writeItem(storageKeys.passkeyAppendShown, undefined);
  writeItem(storageKeys.socialLogin, undefined);
  const method = data.passkeyOperation ? 'passkey' : ctx.method;
  rememberLastUser(ctx, method);
  ctx.$block.set(block);
  ctx.$screen.set('end');
  for (const listener of [...ctx.onComplete]) listener({ authType: block.authType, method });
}
