import { describe, expect, it } from 'vitest';
import type { BlockBody } from '../api/types';
import { CorbadoError } from '../errors';
import { isInitialBlock, parseBlock, switchTo } from './block';
import { initialScreen } from './screens';

const login = (identifierValue = '', status = 'initial'): BlockBody => ({
  block: 'login-init',
  authType: 'login',
  data: { identifierValue, isPhone: false, isEmailAvailable: true, isUsernameAvailable: false, isPhoneAvailable: false, socialData: { providers: [], status } },
});
const signup = (email = '', status = 'initial'): BlockBody => ({
  block: 'signup-init',
  authType: 'signup',
  data: { identifiers: [{ type: 'email', identifier: email }], socialData: { providers: [], status } },
});

describe('parseBlock', () => {
  it('[spec 2.continue-reasons] [spec 3.continue-on-other-env-data] turns continueOnOtherDevice into the continue-on-other-env block, whatever the block says', () => {
    const block = parseBlock({ ...signup(), block: 'email-verify', continueOnOtherDevice: { reason: 'email-link-verified' } });
    expect(block.type).toBe('continue-on-other-env');
    expect(block.continueReason).toBe('email-link-verified');
    expect(block.data).toEqual({ reason: 'email-link-verified' });
  });

  it('[spec 2.continue-reasons] treats an unknown continue reason as process-already-completed', () => {
    const block = parseBlock({ ...signup(), continueOnOtherDevice: { reason: 'other' as never } });
    expect(block.continueReason).toBe('process-already-completed');
  });

  it('[spec 2.blocks] takes each block of the spec', () => {
    // the list as SPEC.md section 2 gives it
    const blocks = (
      'signup-init login-init passkey-verify passkey-append passkey-appended email-verify post-signup-email-verify ' +
      'phone-verify phone-collect username-collect social-verify continue-on-other-env completed conditional-ui-completed'
    ).split(' ') as BlockBody['block'][];
    for (const type of blocks) {
      const body = signup();
      // a passkey-append block names its identifier type (SPEC §8: an unknown one is refused)
      expect(parseBlock({ ...body, block: type, data: { ...body.data, identifierType: 'email' } }).type).toBe(type);
    }
  });

  it('[spec 8.invalid-block-type] rejects an unknown block type with "Invalid block type"', () => {
    expect(() => parseBlock({ ...signup(), block: 'nonsense' as never })).toThrowError(CorbadoError);
    expect(() => parseBlock({ ...signup(), block: 'nonsense' as never })).toThrow(/Invalid block type/);
  });

  it('parses alternatives recursively and keeps the popup error', () => {
    const block = parseBlock({ ...login(), alternatives: [signup()], error: { code: 'x', message: 'y' } });
    expect(block.alternatives.map((a) => a.type)).toEqual(['signup-init']);
    expect(block.error?.code).toBe('x');
  });
});

describe('isInitialBlock', () => {
  it('[spec 4.initial-login] [spec 4.initial-signup] is initial for an empty login-init or signup-init whose social sign-in has not started', () => {
    expect(isInitialBlock(parseBlock(login()))).toBe(true);
    expect(isInitialBlock(parseBlock(signup()))).toBe(true);
  });
  it('is not initial once something was entered or social sign-in started', () => {
    expect(isInitialBlock(parseBlock(login('a@b.de')))).toBe(false);
    expect(isInitialBlock(parseBlock(signup('a@b.de')))).toBe(false);
    expect(isInitialBlock(parseBlock(login('', 'finished')))).toBe(false);
    expect(isInitialBlock(parseBlock({ ...login(), data: { ...login().data, socialData: undefined } }))).toBe(false);
  });
});

describe('switchTo', () => {
  it('[spec 4.signup-login-switch] switches to an alternative and keeps the old block as its alternative', () => {
    const start = parseBlock({ ...login(), alternatives: [signup()] });
    const next = switchTo(start, 'signup-init')!;
    expect(next.type).toBe('signup-init');
    expect(next.alternatives.map((a) => a.type)).toEqual(['login-init']);
    expect(switchTo(next, 'login-init')!.type).toBe('login-init');
    expect(switchTo(start, 'email-verify')).toBeUndefined();
  });
});

describe('initialScreen', () => {
  it('[spec 4.email-start-screen] [spec 2.initial-screen-init] [spec 2.initial-screen-continue] [spec 2.initial-screen-completed] picks each block its first screen', () => {
    expect(initialScreen('signup-init')).toBe('signup-init');
    expect(initialScreen('login-init')).toBe('login-init');
    expect(initialScreen('social-verify')).toBe('social-verify');
    expect(initialScreen('passkey-verify')).toBe('passkey-background');
    expect(initialScreen('continue-on-other-env')).toBe('continue-on-other-device');
    expect(initialScreen('completed')).toBe('end');
    expect(initialScreen('email-verify', 'email-link')).toBe('email-link-sent');
    expect(initialScreen('email-verify', 'email-otp')).toBe('email-otp-verification');
    expect(initialScreen('username-collect')).toBe('missing-fields');
  });
  it('[spec 8.invalid-screen] names an impossible screen with "Invalid screen"', () => {
    expect(() => initialScreen('conditional-ui-completed')).toThrow('Invalid screen: conditional-ui-completed');
  });
});
