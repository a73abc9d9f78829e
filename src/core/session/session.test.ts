import { describe, expect, it } from 'vitest';
import { decodeShortSession, isShortSessionValid, needsRefresh } from './session';

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const token = (claims: object) => `${b64url({ alg: 'ES256' })}.${b64url(claims)}.sig`;

describe('short session', () => {
  it('reads the claims of a JWT, with or without padding, and non-ASCII names', () => {
    const claims = decodeShortSession(token({ sub: 'usr-1', name: 'Jürgen', email: 'j@x.de', exp: 100 }));
    expect(claims).toMatchObject({ sub: 'usr-1', name: 'Jürgen', email: 'j@x.de', exp: 100 });
  });

  it('rejects what is not a session token', () => {
    expect(decodeShortSession('garbage')).toBeUndefined();
    expect(decodeShortSession(token({ name: 'no sub or exp' }))).toBeUndefined();
    expect(decodeShortSession(undefined)).toBeUndefined();
  });

  it('is valid while exp lies ahead and needs a refresh in its last minute', () => {
    const now = 1_000;
    expect(isShortSessionValid(token({ sub: 'u', exp: now + 1 }), now)).toBe(true);
    expect(isShortSessionValid(token({ sub: 'u', exp: now }), now)).toBe(false);
    expect(needsRefresh(token({ sub: 'u', exp: now + 59 }), now)).toBe(true);
    expect(needsRefresh(token({ sub: 'u', exp: now + 61 }), now)).toBe(false);
  });
});
