// The verification screens' rules that need no server: the e-mail status poll's pace and end
// (SPEC.md section 9) and the edit of an unchanged identifier (section 5), on a flow context whose API
// is a fake that records the calls.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../api/client';
import type { ProcessResponse } from '../api/types';
import type { Session } from '../session/session';
import type { FlowBlock } from './block';
import { startPolling, stopPolling } from './emailLinkPolling';
import { FlowContext } from './flowContext';
import { updateIdentifier } from './verification';

const linkSent: FlowBlock = {
  type: 'email-verify',
  authType: 'signup',
  data: { verificationMethod: 'email-link', identifier: 'ada@example.com' },
  alternatives: [],
};
const stillWaiting = { blockBody: { block: 'email-verify', authType: 'signup', data: linkSent.data }, common: {} } as unknown as ProcessResponse;

function context(api: Partial<Record<keyof ApiClient, unknown>>): FlowContext {
  const ctx = new FlowContext(api as unknown as ApiClient, {} as Session, 'pro-1', {} as Window, { finishSocial: async () => undefined });
  ctx.$block.set(linkSent);
  return ctx;
}

describe('the e-mail link status poll', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('[spec 9.email-poll] asks every 2000 ms while the link is unopened, past 120 polls, and stops once the link has expired', async () => {
    const expired = { blockBody: { ...stillWaiting.blockBody, data: { ...linkSent.data, error: { code: 'invalid_challenge_solution_email-link', message: 'expired' } } }, common: {} };
    const verifyStatus = vi.fn(async () => (verifyStatus.mock.calls.length > 300 ? expired : stillWaiting) as ProcessResponse);
    const ctx = context({ verifyStatus });
    startPolling(ctx);
    await vi.advanceTimersByTimeAsync(1999);
    expect(verifyStatus).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(verifyStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1999);
    expect(verifyStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(verifyStatus).toHaveBeenCalledTimes(2);
    // ten minutes: the link's lifetime, where SPEC stops at 120 polls (four minutes)
    await vi.advanceTimersByTimeAsync(299 * 2000);
    expect(verifyStatus).toHaveBeenCalledTimes(301);
    expect(ctx.$screen.get()).toBe('email-link-verification');
    await vi.advanceTimersByTimeAsync(10 * 2000);
    expect(verifyStatus).toHaveBeenCalledTimes(301);
    stopPolling(ctx);
  });
});

describe('editing the identifier being verified', () => {
  it('[spec 5.edit-unchanged] with an unchanged value returns to the verification screen without a call', async () => {
    const identifierUpdate = vi.fn();
    const verifyStart = vi.fn();
    const ctx = context({ identifierUpdate, verifyStart });
    ctx.$screen.set('edit-email');
    expect(await updateIdentifier(ctx, 'email', 'ada@example.com')).toBeUndefined();
    expect(ctx.$screen.get()).toBe('email-link-sent');
    expect(identifierUpdate).not.toHaveBeenCalled();
    expect(verifyStart).not.toHaveBeenCalled();
  });

  it('[spec 5.edit-changed] with another value attempts the update and answers the error the server returns, staying on the edit screen', async () => {
    const taken = { code: 'identifier_already_in_use', message: 'taken' };
    const identifierUpdate = vi.fn(async () => ({ blockBody: { ...stillWaiting.blockBody, error: taken }, common: {} }));
    const ctx = context({ identifierUpdate, verifyStart: vi.fn() });
    ctx.$screen.set('edit-email');
    expect(await updateIdentifier(ctx, 'email', 'grace@example.com')).toEqual(taken);
    expect(identifierUpdate).toHaveBeenCalledExactlyOnceWith('email', 'grace@example.com');
    expect(ctx.$screen.get()).toBe('edit-email');
  });
});
