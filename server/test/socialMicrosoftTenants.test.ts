/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Microsoft's multi-tenant names on a host other than login.microsoftonline.com (the simulator here, as a
// national cloud or an on-premises proxy would be): `common` and `organizations` publish the issuer
// `…/{tenantid}/v2.0`, `consumers` the consumer tenant's; each ID token must carry the issuer with its own
// `tid`, with and without endpoint overrides, and a token whose `iss` names another tenant is refused.
import { describe, expect, it } from 'vitest';
import { MICROSOFT_CONSUMER_TENANT, MICROSOFT_ORGANIZATIONS_TENANT, simulatedIds } from '../dev/simulator.ts';
import { socialSettings, type ProviderSettings } from '../social/providerSettings.ts';
import { acceptMicrosoftIssuer, ProviderError, SocialProviders } from '../social/SocialProviders.ts';
import { consent, socialSignIn, type ConsentAnswer } from './helpers/socialBrowser.ts';
import { DEMO_ORIGIN, serverForThisFile, startTestServer, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile();
const REDIRECT = `${DEMO_ORIGIN}/callback`;

const TENANTS = [
  // path, the issuer its discovery publishes, the tid of who signs in there
  ['common', '{tenantid}', MICROSOFT_CONSUMER_TENANT],
  ['organizations', '{tenantid}', MICROSOFT_ORGANIZATIONS_TENANT],
  ['consumers', MICROSOFT_CONSUMER_TENANT, MICROSOFT_CONSUMER_TENANT],
] as const;

/** The endpoints a tenant path's discovery names, given instead as overrides (marked, to see them used). */
function overrides(tenant: string): Partial<ProviderSettings> {
  const base = `/_dev/oauth/microsoft/${tenant}/oauth2/v2.0`;
  return { authorizeUrl: `${base}/authorize?via=override`, tokenUrl: `${base}/token?via=override`, userinfoUrl: '/_dev/oauth/microsoft/graph/oidc/userinfo?via=override' };
}

/** A sign-in through SocialProviders against the simulator, every request it makes recorded. */
async function signInAt(settings: Partial<ProviderSettings>, answer: ConsentAnswer) {
  const requests: string[] = [];
  const providers = new SocialProviders(socialSettings({ microsoft: settings }), {
    production: false,
    projectClient: async () => undefined,
    fetch: (url, init) => {
      requests.push(`${init.method ?? 'GET'} ${url}`);
      return fetch(url, init);
    },
  });
  const prepared = await providers.prepare('microsoft', 'pro-1', server.url);
  const { url, attempt } = await prepared.authorization(REDIRECT, 'state-1');
  const back = await consent(url, answer);
  const profile = prepared.signIn(REDIRECT, { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! }, attempt);
  return { url, profile, requests };
}

describe("Microsoft's multi-tenant issuers, served from another host than login.microsoftonline.com", () => {
  it.each(TENANTS)('%s: discovery publishes the issuer as Microsoft does', async (tenant, published) => {
    const document = (await (await fetch(`${server.url}/_dev/oauth/microsoft/${tenant}/v2.0/.well-known/openid-configuration`)).json()) as any;
    expect(document.issuer).toBe(`${server.url}/_dev/oauth/microsoft/${published}/v2.0`);
    expect(document.authorization_endpoint).toBe(`${server.url}/_dev/oauth/microsoft/${tenant}/oauth2/v2.0/authorize`);
    expect(document.token_endpoint).toBe(`${server.url}/_dev/oauth/microsoft/${tenant}/oauth2/v2.0/token`);
  });

  for (const withOverrides of [false, true]) {
    it.each(TENANTS)(`%s${withOverrides ? ', with the endpoints overridden' : ''}: the ID token carries the issuer with its own tid and is accepted`, async (tenant, _published, tid) => {
      const email = uniqueEmail(`ms-${tenant}`);
      const settings = { issuer: `/_dev/oauth/microsoft/${tenant}/v2.0`, ...(withOverrides ? overrides(tenant) : {}) };
      const { url, profile, requests } = await signInAt(settings, { email, name: 'Tess Tenant', vouched: true });
      expect(await profile).toEqual({ subject: `${tid}:${simulatedIds('microsoft', email).guid}`, email, emailVerified: true, fullName: 'Tess Tenant', avatarUrl: '' });
      const endpoint = `${server.url}/_dev/oauth/microsoft/${tenant}/oauth2/v2.0`;
      expect(url.startsWith(`${endpoint}/authorize?${withOverrides ? 'via=override&' : ''}`)).toBe(true);
      // the code went to the provider once, to the endpoint in force
      expect(requests.filter((r) => r.startsWith('POST'))).toEqual([`POST ${endpoint}/token${withOverrides ? '?via=override' : ''}`]);
    });

    it.each(TENANTS)(`%s${withOverrides ? ', with the endpoints overridden' : ''}: an ID token whose iss names another tenant than its tid is refused`, async (tenant) => {
      const settings = { issuer: `/_dev/oauth/microsoft/${tenant}/v2.0`, ...(withOverrides ? overrides(tenant) : {}) };
      const { profile } = await signInAt(settings, { email: uniqueEmail('ms-other-tenant'), vouched: true, fault: 'id-token-tenant' });
      await expect(profile).rejects.toThrow(ProviderError);
      await expect(profile).rejects.toThrow(/iss/);
    });
  }

  it('refuses at the start a discovery that names an issuer on another host or path, or the template for a tenant given by its id', () => {
    const us = 'https://login.microsoftonline.us';
    const tenant = '72f988bf-86f1-41af-91ab-2d7cd011db47';
    for (const [configured, discovered] of [
      [`${us}/common/v2.0`, `${us}/{tenantid}/v2.0`],
      [`${us}/organizations/v2.0`, `${us}/{tenantid}/v2.0`],
      [`${us}/consumers/v2.0`, `${us}/${MICROSOFT_CONSUMER_TENANT}/v2.0`],
      [`${us}/contoso.onmicrosoft.com/v2.0`, `${us}/${tenant}/v2.0`],
      [`${us}/${tenant}/v2.0`, `${us}/${tenant}/v2.0`],
      ['https://proxy.example/entra/common/v2.0', 'https://proxy.example/entra/{tenantid}/v2.0'],
    ]) {
      expect(() => acceptMicrosoftIssuer(configured!, discovered!), `${configured} -> ${discovered}`).not.toThrow();
    }
    for (const [configured, discovered] of [
      [`${us}/common/v2.0`, 'https://evil.example/{tenantid}/v2.0'],
      [`${us}/common/v2.0`, `${us}/other/{tenantid}/v2.0`],
      [`${us}/common/v2.0`, `${us}/{tenantid}/v1.0`],
      [`${us}/common/v2.0`, `${us}/not-a-tenant/v2.0`],
      [`${us}/${tenant}/v2.0`, `${us}/{tenantid}/v2.0`],
      [`${us}/${tenant}/v2.0`, `${us}/${MICROSOFT_CONSUMER_TENANT}/v2.0`],
    ]) {
      expect(() => acceptMicrosoftIssuer(configured!, discovered!), `${configured} -> ${discovered}`).toThrow(ProviderError);
    }
  });

  it('a visitor signs in with Microsoft configured as `common` on another host (no "did not work")', async () => {
    const other = await startTestServer({ api: { socialProviders: { microsoft: { issuer: '/_dev/oauth/microsoft/common/v2.0' } } } });
    try {
      const email = uniqueEmail('ms-common-visitor');
      const { finished } = await socialSignIn(other.url, 'pro-1', { email, vouched: true }, { provider: 'microsoft' });
      expect(finished.block).toBe('completed');
      const accounts = await other.api.store.db.all<{ subject: string }>('SELECT subject FROM social_accounts WHERE email = ?', [email]);
      expect(accounts.map((a) => a.subject)).toEqual([`${MICROSOFT_CONSUMER_TENANT}:${simulatedIds('microsoft', email).guid}`]);
    } finally {
      await other.stop();
    }
  });
});
