// SPEC §3, passkey-append and passkey-verify data: whether the step can be skipped, and the fallbacks it
// offers, as the widget derives them from the block's alternatives.
import { describe, expect, it } from 'vitest';
import type { BlockBody } from '../api/types';
import { parseBlock } from './block';
import { canSkip, fallbacks } from './passkeys';

const append = (alternatives: BlockBody[]): BlockBody => ({
  block: 'passkey-append',
  authType: 'signup',
  data: { identifierType: 'email', identifierValue: 'ada@example.com', challenge: '' },
  alternatives,
});
const completed: BlockBody = { block: 'completed', authType: 'signup', data: { shortSession: '' } };
const emailLink: BlockBody = { block: 'email-verify', authType: 'signup', data: { verificationMethod: 'email-link', identifier: 'ada@example.com' } };
const emailCode: BlockBody = { block: 'email-verify', authType: 'login', data: { verificationMethod: 'email-otp', identifier: 'ada@example.com' } };
const phoneCode: BlockBody = { block: 'phone-verify', authType: 'login', data: { verificationMethod: 'phone-otp', identifier: '+4915112345678' } };

describe('passkey block data', () => {
  it('[spec 3.passkey-append-can-be-skipped] can be skipped exactly when a completed alternative exists', () => {
    expect(canSkip(parseBlock(append([completed])))).toBe(true);
    expect(canSkip(parseBlock(append([emailLink, completed])))).toBe(true);
    expect(canSkip(parseBlock(append([emailLink])))).toBe(false);
    expect(canSkip(parseBlock(append([])))).toBe(false);
    expect(canSkip(undefined)).toBe(false);
  });

  it('[spec 3.passkey-append-fallbacks] offers as fallbacks the verifications its alternatives name, and nothing for a completed one', () => {
    expect(fallbacks(parseBlock(append([emailLink, completed])))).toEqual([{ method: 'email-link', identifierType: 'email' }]);
    const verify: BlockBody = { block: 'passkey-verify', authType: 'login', data: { identifierValue: 'ada@example.com' }, alternatives: [emailCode, phoneCode] };
    expect(fallbacks(parseBlock(verify))).toEqual([
      { method: 'email-otp', identifierType: 'email' },
      { method: 'phone-otp', identifierType: 'phone' },
    ]);
    expect(fallbacks(parseBlock(append([completed])))).toEqual([]);
  });
});
