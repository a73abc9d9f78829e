/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// OpenID discovery read by a maintained client other than jose: openid-client's discovery(), as a relying
// party starts. The server's own document (its short sessions' issuer) and the dev stand-ins' (Google,
// Microsoft at a tenant id and at common, organizations, consumers) each carry what OpenID Connect
// Discovery 1.0 §3 requires, and the authorization endpoint they name is one openid-client builds a request
// for. The server's refuses every request without a redirect: it has no OAuth clients.
import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { SIMULATOR_MICROSOFT_TENANT } from '../social/providerSettings.ts';
import { serverForThisFile } from './helpers/testServer.ts';

const server = serverForThisFile();

/**
 * What OpenID Connect Discovery 1.0 §3 ("OpenID Provider Metadata") marks REQUIRED; `token_endpoint` too,
 * "unless only the Implicit Flow is used" (response types `id_token`, `id_token token`).
 */
const REQUIRED = ['issuer', 'authorization_endpoint', 'jwks_uri', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported'] as const;
const IMPLICIT_ONLY = new Set(['id_token', 'id_token token']);

function missingMembers(metadata: oidc.ServerMetadata): string[] {
  const missing: string[] = REQUIRED.filter((member) => metadata[member] === undefined);
  const responseTypes = metadata.response_types_supported ?? [];
  const implicitOnly = responseTypes.length > 0 && responseTypes.every((t) => IMPLICIT_ONLY.has(t));
  if (!metadata.token_endpoint && !implicitOnly) missing.push('token_endpoint');
  return missing;
}

/** Discovery as openid-client does it, at an issuer (its issuer check) or at the document's own URL. */
function discover(at: string): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(at), 'a-relying-party', undefined, undefined, { execute: [oidc.allowInsecureRequests] });
}

describe("the server's OpenID discovery", () => {
  it('is read by openid-client at the issuer and holds every member the spec requires', async () => {
    const configuration = await discover(server.url);
    const metadata = configuration.serverMetadata();
    expect(missingMembers(metadata)).toEqual([]);
    expect(metadata).toMatchObject({
      issuer: server.url,
      jwks_uri: `${server.url}/.well-known/jwks`,
      authorization_endpoint: `${server.url}/oauth2/authorize`,
      response_types_supported: ['id_token'],
      grant_types_supported: ['implicit'],
      subject_types_supported: ['public'],
      // not RS256, which the spec asks to be listed: verifiers taking their algorithms from here would accept it
      id_token_signing_alg_values_supported: ['ES256'],
    });
  });

  it('names an authorization endpoint that openid-client builds a request for, and that refuses it without a redirect', async () => {
    const configuration = await discover(server.url);
    const url = oidc.buildAuthorizationUrl(configuration, { redirect_uri: 'https://rp.example/callback', scope: 'openid', response_type: 'id_token', nonce: 'n-1' });
    expect(url.origin + url.pathname).toBe(`${server.url}/oauth2/authorize`);
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(((await res.json()) as any).error).toMatchObject({ type: 'invalid_request', details: expect.stringContaining('no OAuth clients') });
  });
});

describe("the dev stand-ins' OpenID discovery, read the same way", () => {
  const microsoft = '/_dev/oauth/microsoft';
  it.each([
    ['Google, at its issuer', '/_dev/oauth/google'],
    ['Microsoft, at a tenant id', `${microsoft}/${SIMULATOR_MICROSOFT_TENANT}/v2.0`],
    // the multi-tenant names publish another issuer (as Microsoft's do): read at the document's own URL
    ['Microsoft, common', `${microsoft}/common/v2.0/.well-known/openid-configuration`],
    ['Microsoft, organizations', `${microsoft}/organizations/v2.0/.well-known/openid-configuration`],
    ['Microsoft, consumers', `${microsoft}/consumers/v2.0/.well-known/openid-configuration`],
  ])('%s', async (_name, path) => {
    const configuration = await discover(`${server.url}${path}`);
    const metadata = configuration.serverMetadata();
    expect(missingMembers(metadata)).toEqual([]);
    // they issue ID tokens to relying parties: RS256 as the spec requires
    expect(metadata.id_token_signing_alg_values_supported).toContain('RS256');
    const url = oidc.buildAuthorizationUrl(configuration, { redirect_uri: 'http://localhost:5173/callback', scope: 'openid', nonce: 'n-1' });
    expect(url.href.startsWith(metadata.authorization_endpoint!)).toBe(true);
  });
});
