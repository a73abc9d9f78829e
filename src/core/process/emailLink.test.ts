import { describe, expect, it } from 'vitest';
import { readEmailLink, withoutEmailLinkParams } from './emailLink';

const payload = (authType: number) =>
  encodeURIComponent(
    btoa(
      JSON.stringify({
        process: { id: 'tok', expires: 2_000_000_000, frontendApiUrl: 'http://api' },
        blockData: { identifier: 'a@b.de', retryNotBefore: 1, verificationMethod: 'email-link' },
        authType,
      }),
    ),
  );

describe('readEmailLink', () => {
  it('[spec 5.email-link-params] [spec 2.email-link-params] [spec 3.email-link-payload] reads the process and token from both parameters', () => {
    const link = readEmailLink(`?corbadoEmailLinkID=${payload(1)}&corbadoToken=secret`)!;
    expect(link.process).toEqual({ id: 'tok', expires: 2_000_000_000, frontendApiUrl: 'http://api' });
    expect(link.blockData).toEqual({ identifier: 'a@b.de', retryNotBefore: 1, verificationMethod: 'email-link' });
    // 0 means login, anything else sign-up
    expect(readEmailLink(`?corbadoEmailLinkID=${payload(2)}&corbadoToken=x`)!.authType).toBe('signup');
    expect(link.process.id).toBe('tok');
    expect(link.token).toBe('secret');
    expect(link.authType).toBe('signup');
    expect(readEmailLink(`?corbadoEmailLinkID=${payload(0)}&corbadoToken=x`)!.authType).toBe('login');
  });

  it('[spec 5.email-link-params] [spec 2.email-link-params] does nothing when either parameter is missing', () => {
    expect(readEmailLink(`?corbadoEmailLinkID=${payload(1)}`)).toBeUndefined();
    expect(readEmailLink('?corbadoToken=secret')).toBeUndefined();
  });

  it('[spec 5.email-link-token-missing] keeps an empty token as empty, for the missing-token error', () => {
    expect(readEmailLink(`?corbadoEmailLinkID=${payload(1)}&corbadoToken=`)!.token).toBe('');
  });

  it('ignores a payload that is not base64 JSON', () => {
    expect(readEmailLink('?corbadoEmailLinkID=%%%&corbadoToken=x')).toBeUndefined();
  });

  it('removes the two parameters from the address and keeps the rest', () => {
    expect(withoutEmailLinkParams(`http://h/p?a=1&corbadoEmailLinkID=${payload(1)}&corbadoToken=x#h`)).toBe('/p?a=1#h');
  });
});
