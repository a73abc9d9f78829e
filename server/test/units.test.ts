// Small pure pieces: User-Agent parsing, identifier rules, block order decisions, a flow context's deferred saves.
import { describe, expect, it } from 'vitest';
import { resolveProjectConfig } from '../config/projectConfig.ts';
import { canonicalFullName, canonicalIdentifier, cleanedFullName, hasRefusedCharacter, normalizedIdentifier } from '../flow/identifierRules.ts';
import { nextSignupStep, passkeyAppendSkippable } from '../flow/nextStep.ts';
import { initialState } from '../flow/processState.ts';
import { userAgentSource } from '../flow/userAgentSource.ts';
import { FlowContext, type FlowDeps, type FlowRequest } from '../flow/FlowContext.ts';
import type { ProcessRecord } from '../store/ProcessesRepo.ts';

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
    // the domain is case-insensitive and stored in lower case; the local part is kept as typed
    expect(canonicalIdentifier('email', ' Ada@Example.COM ')).toBe('Ada@example.com');
    expect(normalizedIdentifier('email', 'Ada@Example.COM')).toBe('ada@example.com');
    expect(canonicalIdentifier('phone', '+1 (415) 555-2671')).toBe('+14155552671');
    expect(canonicalIdentifier('username', 'a_b-C9')).toBe('a_b-C9');
  });
  it('rejects invalid values', () => {
    for (const v of ['a@b', '@b.com', 'a b@c.de', 'a@b..', `${'x'.repeat(250)}@b.com`]) expect(canonicalIdentifier('email', v), v).toBeUndefined();
    for (const v of ['015112345678', '+1', '+99912345', 'abc']) expect(canonicalIdentifier('phone', v), v).toBeUndefined();
    for (const v of ['abc', 'a'.repeat(33), 'a.b.c.d', 'ab cd']) expect(canonicalIdentifier('username', v), v).toBeUndefined();
  });
  it('refuses control, bidi and zero-width characters and lone surrogates in every type', () => {
    const refused = ['\u0000', '\u0007', '\u001F', '\u007F', '\u0085', '\u009F', '\u061C', '\u200E', '\u200F', '\u202A', '\u202E', '\u2066', '\u2069', '\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\uD800'];
    for (const c of refused) {
      const name = `U+${c.codePointAt(0)!.toString(16)}`;
      expect(hasRefusedCharacter(`a${c}b`), name).toBe(true);
      expect(canonicalIdentifier('email', `ad${c}a@example.com`), name).toBeUndefined();
      expect(canonicalIdentifier('email', `ada@exam${c}ple.com`), name).toBeUndefined();
      expect(canonicalIdentifier('username', `ada_${c}lovelace`), name).toBeUndefined();
      expect(canonicalIdentifier('phone', `+1 415${c} 555 2671`), name).toBeUndefined();
    }
    // what stays allowed: letters of any script, combining marks, emoji (a surrogate pair), spaces
    for (const ok of ['Zoë', 'Ærøskøbing', 'محمد', '山田', '👩‍🔬'.replace('\u200D', ''), 'a b']) expect(hasRefusedCharacter(ok), ok).toBe(false);
  });
  it('the NUL address of issue 13 is refused, not shortened into another address', () => {
    expect(canonicalIdentifier('email', 'x@example.com\u0000.evil.com')).toBeUndefined();
  });
  it('NFC-normalises e-mail addresses and brings the domain into its IDNA form in lower case', () => {
    expect(canonicalIdentifier('email', 'Zoe\u0308@BÜCHER.Example')).toBe('Zoë@bücher.example');
    expect(canonicalIdentifier('email', 'zoë@xn--bcher-kva.example')).toBe('zoë@bücher.example');
    // UTS #46 maps full-width letters and the ideographic full stop: stored as a mail server reads them
    expect(canonicalIdentifier('email', 'ada@ｅｘａｍｐｌｅ.com')).toBe('ada@example.com');
    expect(canonicalIdentifier('email', 'ada@mail.example。com')).toBe('ada@mail.example.com');
    expect(normalizedIdentifier('email', canonicalIdentifier('email', 'Ada@BÜCHER.example')!)).toBe(
      normalizedIdentifier('email', canonicalIdentifier('email', 'ada@xn--bcher-kva.example')!),
    );
  });
  it('refuses a domain IDNA cannot convert or that is no host name', () => {
    for (const v of ['a@xn--zz.example', 'a@xn--a.com', 'a@exa%mple.com', 'a@a/b.com', 'a@-a.com', 'a@a..com', 'a@foo_bar.com', `a@${'x'.repeat(64)}.com`]) {
      expect(canonicalIdentifier('email', v), v).toBeUndefined();
    }
  });
  it('full names: trimmed, NFC, at most 100 characters, no refused characters', () => {
    expect(canonicalFullName('  Rene\u0301 Descartes ')).toEqual({ value: 'René Descartes' });
    expect(canonicalFullName('')).toEqual({ value: '' });
    expect(canonicalFullName('x'.repeat(100))).toEqual({ value: 'x'.repeat(100) });
    expect(canonicalFullName('x'.repeat(101))).toEqual({ error: 'missing_full_name' });
    for (const v of ['Ada\u0000', 'Ada\u202Eecalevol', 'A\u200Bda', 'Ada\nLovelace']) expect(canonicalFullName(v), JSON.stringify(v)).toEqual({ error: 'invalid_full_name' });
  });
  it("a provider's name loses the refused characters and is cut at a code point", () => {
    expect(cleanedFullName(' Ada\u202E\u0000 Lovelace ')).toBe('Ada Lovelace');
    const cut = cleanedFullName(`${'x'.repeat(99)}😀`);
    expect(cut).toBe('x'.repeat(99));
    expect(hasRefusedCharacter(cut)).toBe(false);
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

  it('[spec 4.signup-path] after-verification: verifications, collects, passkey, passkey-appended', () => {
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

describe('a flow context\'s deferred saves', () => {
  const context = () => {
    const writes: { id: string; state: unknown }[] = [];
    const processes = {
      saveState: (id: string, state: unknown) => (writes.push({ id, state: JSON.parse(JSON.stringify(state)) }), Promise.resolve()),
      // the flush's write goes at the commit: noted here as written
      saveStateTextAtCommit: (id: string, json: string) => void writes.push({ id, state: JSON.parse(json) }),
    };
    const process = { id: 'pro-x', state: initialState('signup', { platformAuthenticator: false, conditionalMediation: false }) } as unknown as ProcessRecord;
    const ctx = new FlowContext({ store: { processes } } as unknown as FlowDeps, {} as FlowRequest, process);
    return { ctx, writes };
  };

  it('write at once without deferSaves', async () => {
    const { ctx, writes } = context();
    ctx.state.fullName = 'A';
    await ctx.save();
    expect(writes).toEqual([{ id: 'pro-x', state: expect.objectContaining({ fullName: 'A' }) }]);
  });

  it('write once, at flush, the state as the last save() saw it: nothing changed after it, nothing when nothing was saved', async () => {
    const { ctx, writes } = context();
    ctx.deferSaves();
    ctx.flush();
    expect(writes).toEqual([]);
    ctx.state.fullName = 'A';
    await ctx.save();
    ctx.state.fullName = 'B';
    await ctx.save();
    ctx.state.fullName = 'not saved';
    expect(writes).toEqual([]);
    ctx.flush();
    expect(writes).toEqual([{ id: 'pro-x', state: expect.objectContaining({ fullName: 'B' }) }]);
    ctx.flush();
    expect(writes).toHaveLength(1);
  });
});
