// Which pages are on another site than the API: the registrable domain by the Public Suffix List
// (its private section too, as browsers count it), the scheme, and Sec-Fetch-Site without an Origin.
import { describe, expect, it } from 'vitest';
import { onAnotherSite, requestIsCrossSite, siteOf } from '../http/crossSite.ts';

describe('sites', () => {
  it('a sibling subdomain is the same site; another registrable domain, another scheme or a hosted subdomain is not', () => {
    expect(siteOf('https://auth.shop.test:8443/x')).toBe('https://shop.test');
    expect(onAnotherSite('https://shop.test', 'https://auth.shop.test')).toBe(false);
    expect(onAnotherSite('https://shop.test', 'https://authsite.test')).toBe(true);
    expect(onAnotherSite('http://shop.test', 'https://auth.shop.test')).toBe(true);
    expect(onAnotherSite('https://www.shop.co.uk', 'https://auth.shop.co.uk')).toBe(false);
    // hosted pages: each customer's subdomain is a site of its own (the list's private section)
    expect(onAnotherSite('https://shop.myshopify.com', 'https://auth.myshopify.com')).toBe(true);
    expect(onAnotherSite('https://shop.github.io', 'https://other.github.io')).toBe(true);
  });

  it('localhost and addresses are their own site, whatever the port', () => {
    expect(onAnotherSite('http://localhost:5173', 'http://localhost:3000')).toBe(false);
    expect(onAnotherSite('http://127.0.0.1:5173', 'http://localhost:3000')).toBe(true);
  });

  it('a request: its Origin decides, else Sec-Fetch-Site; nothing at all is the same site', () => {
    expect(requestIsCrossSite('https://shop.test', 'same-site', 'https://authsite.test')).toBe(true);
    expect(requestIsCrossSite(undefined, 'cross-site', 'https://authsite.test')).toBe(true);
    expect(requestIsCrossSite(undefined, 'same-site', 'https://auth.shop.test')).toBe(false);
    expect(requestIsCrossSite(undefined, undefined, 'https://authsite.test')).toBe(false);
  });
});
