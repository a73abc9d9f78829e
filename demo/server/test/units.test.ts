// Small pure pieces: User-Agent parsing, identifier rules, block order decisions.
import { describe, expect, it } from 'vitest';
import { resolveProjectConfig } from '../config/projectConfig.ts';
import { canonicalIdentifier, normalizedIdentifier } from '../flow/identifierRules.ts';
import { nextSignupStep, passkeyAppendSkippable } from '../flow/nextStep.ts';
import { initialState } from '../flow/processState.ts';
import { userAgentSource } from '../flow/userAgentSource.ts';

describe('userAgentSource', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0', 'Edge 120', 'Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15', 'Safari 17', 'macOS'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1', 'Safari 17', 'iOS'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1', 'Chrome 120', 'iOS'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', 'Chrome 120', 'Android'],
    ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0', 'Firefox 121', 'Linux'],
    ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', 'Chrome 120', 'ChromeOS'],
    ['Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36', 'Samsung Internet 23', 'Android'],
    ['curl/8.0', 'Unknown browser', 'Unknown OS'],
  ])('%s', (ua, browser, os) => {
    expect(userAgentSource(ua)).toEqual({ browser, os });
  });
});

describe('identifier rules', () => {
  it('accepts and normalises valid values', () => {
    expect(canonicalIdentifier('email', ' Ada@Example.COM ')).toBe('Ada@Example.COM');
    expect(normalizedIdentifier('email', 'Ada@Example.COM')).toBe('ada@example.com');
    expect(canonicalIdentifier('phone', '+1 (415) 555-2671')).toBe('+14155552671');
    expect(canonicalIdentifier('username', 'a_b-C9')).toBe('a_b-C9');
  });
  it('rejects invalid values', () => {
    for (const v of ['a@b', '@b.com', 'a b@c.de', 'a@b..', `${'x'.repeat(250)}@b.com`]) expect(canonicalIdentifier('email', v), v).toBeUndefined();
    for (const v of ['015112345678', '+1', '+99912345', 'abc']) expect(canonicalIdentifier('phone', v), v).toBeUndefined();
    for (const v of ['abc', 'a'.repeat(33), 'a.b.c.d', 'ab cd']) expect(canonicalIdentifier('username', v), v).toBeUndefined();
  });
});

describe('block order', () => {
  const device = { platformAuthenticator: true, conditionalMediation: false };
  it('before-verification: passkey first, then verification, then completed', () => {
    const project = resolveProjectConfig('pro-1', { passkeyAppend: 'before-verification' }, 'http://x.test');
    const s = initialState('signup', device);
    s.identifiers.email = { value: 'a@b.de', verified: false };
    expect(nextSignupStep(s, project)).toEqual({ block: 'passkey-append' });
    expect(passkeyAppendSkippable(s, project)).toBe(false);
    s.passkey = 'appended';
    expect(nextSignupStep(s, project)).toEqual({ block: 'email-verify', type: 'email' });
    s.identifiers.email.verified = true;
    expect(nextSignupStep(s, project)).toEqual({ block: 'completed' });
  });

  it('after-verification: verifications, collects, passkey, passkey-appended', () => {
    const project = resolveProjectConfig(
      'pro-1',
      { identifiers: { email: {}, phone: { collectAt: 'later' }, username: { collectAt: 'later', loginIdentifier: false } } },
      'http://x.test',
    );
    const s = initialState('signup', device);
    s.identifiers.email = { value: 'a@b.de', verified: false };
    expect(nextSignupStep(s, project).block).toBe('email-verify');
    s.identifiers.email.verified = true;
    expect(nextSignupStep(s, project).block).toBe('username-collect');
    s.identifiers.username = { value: 'abcd', verified: false };
    expect(nextSignupStep(s, project).block).toBe('phone-collect');
    s.identifiers.phone = { value: '+14155552671', verified: false };
    expect(nextSignupStep(s, project)).toEqual({ block: 'phone-verify', type: 'phone' }); // collected, so verified next
    s.identifiers.phone.verified = true;
    expect(nextSignupStep(s, project).block).toBe('passkey-append');
    expect(passkeyAppendSkippable(s, project)).toBe(true);
    s.passkey = 'appended';
    expect(nextSignupStep(s, project).block).toBe('passkey-appended');
    s.passkeyAcknowledged = true;
    expect(nextSignupStep(s, project).block).toBe('completed');
  });

  it('skips the passkey without a platform authenticator', () => {
    const project = resolveProjectConfig('pro-1', {}, 'http://x.test');
    const s = initialState('signup', { platformAuthenticator: false, conditionalMediation: false });
    s.identifiers.email = { value: 'a@b.de', verified: true };
    expect(nextSignupStep(s, project).block).toBe('completed');
  });
});
