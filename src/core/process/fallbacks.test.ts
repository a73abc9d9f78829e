// The ways on from a passkey step without a passkey (SPEC.md section 4, "Passkey verify" and "Passkey
// append"): fallbacks only where the block's alternatives offer them, "Maybe later" only where skippable.
import { describe, expect, it } from 'vitest';
import type { BlockBody } from '../api/types';
import { parseBlock } from './block';
import { canSkip, fallbacks } from './passkeys';

const emailOtp: BlockBody = { block: 'email-verify', authType: 'login', data: { verificationMethod: 'email-otp', identifier: 'ada@example.com' } };
const emailLink: BlockBody = { ...emailOtp, data: { verificationMethod: 'email-link', identifier: 'ada@example.com' } };
const sms: BlockBody = { block: 'phone-verify', authType: 'login', data: { verificationMethod: 'phone-otp', identifier: '+4915112345678' } };
const completed: BlockBody = { block: 'completed', authType: 'signup', data: {} };
const passkey = (block: 'passkey-verify' | 'passkey-append', alternatives: BlockBody[]) =>
  parseBlock({ block, authType: block === 'passkey-verify' ? 'login' : 'signup', data: { identifierValue: 'ada@example.com', identifierType: 'email' }, alternatives });

describe('fallbacks', () => {
  it('[spec 4.passkey-verify-fallbacks] of passkey-verify are the e-mail code, e-mail link or SMS code its alternatives offer', () => {
    expect(fallbacks(passkey('passkey-verify', [emailOtp, sms]))).toEqual([
      { method: 'email-otp', identifierType: 'email' },
      { method: 'phone-otp', identifierType: 'phone' },
    ]);
    expect(fallbacks(passkey('passkey-verify', [emailLink]))).toEqual([{ method: 'email-link', identifierType: 'email' }]);
    expect(fallbacks(passkey('passkey-verify', []))).toEqual([]);
  });

  it('[spec 4.append-fallback] of passkey-append exist only where its alternatives include them', () => {
    expect(fallbacks(passkey('passkey-append', [completed]))).toEqual([]);
    expect(fallbacks(passkey('passkey-append', [emailLink, completed]))).toEqual([{ method: 'email-link', identifierType: 'email' }]);
  });
});

describe('canSkip', () => {
  it('[spec 4.append-skip] is true only for a passkey-append that can be skipped (a completed alternative)', () => {
    expect(canSkip(passkey('passkey-append', [emailOtp, completed]))).toBe(true);
    expect(canSkip(passkey('passkey-append', [emailOtp]))).toBe(false);
  });
});
