// A development server behind a TLS proxy (PUBLIC_URL https://…, the proxy speaking http to it): the
// provider stand-ins announce their issuer and endpoints under PUBLIC_URL, where the API resolves their
// paths, not under the http address the proxy reaches them at (discovery failed: "issuer does not match").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/testServer.ts';

describe('the provider stand-ins behind a TLS proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ api: { publicUrl: 'https://auth.shop.test' } });
  });
  afterAll(() => server.stop());

  it('announce the issuer and endpoints under PUBLIC_URL', async () => {
    const google = (await (await fetch(`${server.url}/_dev/oauth/google/.well-known/openid-configuration`)).json()) as Record<string, string>;
    expect(google.issuer).toBe('https://auth.shop.test/_dev/oauth/google');
    expect(google.token_endpoint).toMatch(/^https:\/\/auth\.shop\.test\/_dev\/oauth\/google\//);
    expect(google.jwks_uri).toMatch(/^https:\/\/auth\.shop\.test\//);
    const tenant = '7d3c1c5e-5f43-4a8f-9d36-2a8a0c4f1b6e';
    const microsoft = (await (await fetch(`${server.url}/_dev/oauth/microsoft/${tenant}/v2.0/.well-known/openid-configuration`)).json()) as Record<string, string>;
    expect(microsoft.issuer).toBe(`https://auth.shop.test/_dev/oauth/microsoft/${tenant}/v2.0`);
  });
});
