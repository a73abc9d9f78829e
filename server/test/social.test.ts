/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Social sign-in against the provider simulators, over real HTTP: start, each provider's consent page,
// the callback, finish; each provider's rule for trusting an address; linking and its notice; the
// simulators' own endpoints, shaped like the real providers; configuration and per-project clients.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.ts';
import { microsoftPairwiseSubject, MICROSOFT_CONSUMER_TENANT, simulatedIds } from '../dev/simulator.ts';
import { SIMULATOR_CLIENT_SECRET, SIMULATOR_MICROSOFT_TENANT, socialOverridesFromEnv, socialSettings } from '../social/providerSettings.ts';
import { SocialProviders } from '../social/SocialProviders.ts';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import {
  consent,
  get,
  hiddenFields,
  RETURN_URL,
  SocialBrowser,
  socialSignIn as signIn,
  WITH_PASSKEYS,
  WITHOUT_PASSKEYS,
  type ConsentAnswer,
  type Provider,
} from './helpers/socialBrowser.ts';
import {
  Client,
  createProject,
  databaseEnv,
  jwtPayload,
  enterEmailCode,
  outbox,
  postProject,
  serverForThisFile,
  startTestServer,
  uniqueEmail,
  uniqueUsername,
} from './helpers/testServer.ts';

const server = serverForThisFile();
const PROVIDERS: Provider[] = ['google', 'microsoft', 'github'];

const socialSignIn = (projectId: string, answer: ConsentAnswer, options: Parameters<typeof signIn>[3] = {}) => signIn(server.url, projectId, answer, options);

async function me(client: Client): Promise<any> {
  const res = await client.request('GET', '/v2/me');
  expect(res.status).toBe(200);
  return res.body;
}

async function started(projectId = 'pro-1', provider: Provider = 'google'): Promise<{ client: SocialBrowser; oauthUrl: URL }> {
  const client = new SocialBrowser(server.url, projectId);
  await client.init(WITHOUT_PASSKEYS, 'signup-init');
  const block = await client.startSocial(provider);
  return { client, oauthUrl: new URL(block.data.socialData.oauthUrl) };
}

describe('social/verify/start', () => {
  it('[spec 1.auth-social] answers the init block with the provider URL: PKCE S256, state and, for OpenID Connect, a nonce', async () => {
    const client = new SocialBrowser(server.url, 'pro-1');
    await client.init(WITHOUT_PASSKEYS, 'login-init');
    const block = await client.startSocial('microsoft', 'signup');
    expect(block.block).toBe('signup-init');
    expect(block.data.socialData.providers).toEqual(['google', 'microsoft', 'github']);
    const url = new URL(block.data.socialData.oauthUrl);
    expect(url.origin + url.pathname).toBe(`${server.url}/_dev/oauth/microsoft/${SIMULATOR_MICROSOFT_TENANT}/oauth2/v2.0/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'pro-1',
      redirect_uri: `${server.url}/v2/auth/social/verify/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    });
    // the browser that asked gets its binding cookie, only for the social paths
    const cookie = client.cookies.get('cbo_social_browser');
    expect(cookie).toMatch(/^[\w-]{43}$/);
    const again = await client.startSocial('google', 'login');
    expect(again.block).toBe('login-init');
    const google = new URL(again.data.socialData.oauthUrl);
    expect(google.origin + google.pathname).toBe(`${server.url}/_dev/oauth/google/o/oauth2/v2/auth`);
    expect(google.searchParams.get('state')).not.toBe(url.searchParams.get('state'));
    expect(google.searchParams.get('code_challenge')).not.toBe(url.searchParams.get('code_challenge'));
    // the same browser keeps its cookie
    expect(client.cookies.get('cbo_social_browser')).toBe(cookie);
  });

  it('asks GitHub for its own scopes, without a nonce', async () => {
    const { oauthUrl } = await started('pro-1', 'github');
    expect(oauthUrl.origin + oauthUrl.pathname).toBe(`${server.url}/_dev/oauth/github/login/oauth/authorize`);
    expect(oauthUrl.searchParams.get('scope')).toBe('read:user user:email');
    expect(oauthUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(oauthUrl.searchParams.has('nonce')).toBe(false);
  });

  it('sets the binding cookie HttpOnly, SameSite=Lax, on the social paths, for as long as a round trip may take', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init(WITHOUT_PASSKEYS);
    const res = await client.request('POST', '/v2/auth/social/verify/start', { providerType: 'google', redirectUrl: RETURN_URL, authType: 'login' });
    const line = res.headers.getSetCookie().find((l) => l.startsWith('cbo_social_browser='))!;
    expect(line).toMatch(/; Max-Age=900; Path=\/v2\/auth\/social\/; HttpOnly; SameSite=Lax$/);
  });

  it('signs up only where public sign-up is open (pro-5 answers login-init)', async () => {
    const client = new SocialBrowser(server.url, 'pro-5');
    await client.init(WITHOUT_PASSKEYS);
    expect((await client.startSocial('github', 'signup')).block).toBe('login-init');
  });

  it('refuses a provider the project does not offer in-band', async () => {
    const projectId = await createProject(server.url, { socialProviders: ['google'] });
    const client = new Client(server.url, projectId);
    await client.init(WITHOUT_PASSKEYS, 'signup-init');
    const block = await client.step('/v2/auth/social/verify/start', { providerType: 'github', redirectUrl: RETURN_URL, authType: 'signup' });
    expect(block.block).toBe('signup-init');
    expect(block.data.error).toEqual({ code: 'social_provider_not_enabled', message: 'Sign-in with this provider is not enabled for this app.' });
    expect(block.error).toEqual(block.data.error);
    expect(block.data.socialData).toEqual({ providers: ['google'], status: 'initial' });
  });

  it('rejects redirect URLs off the allowed origins and malformed bodies with 400', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init(WITHOUT_PASSKEYS);
    for (const redirectUrl of ['https://evil.example/', 'javascript:alert(1)//localhost:5173', 'not a url', 'http://user:pw@localhost:5173/']) {
      const res = await client.request('POST', '/v2/auth/social/verify/start', { providerType: 'google', redirectUrl, authType: 'login' });
      expect(res.status, redirectUrl).toBe(400);
      expect(res.body.error.type).toBe('invalid_request');
      expect(res.body.error.validation).toEqual([{ field: 'redirectUrl', message: expect.any(String) }]);
    }
    const badAuthType = await client.request('POST', '/v2/auth/social/verify/start', { providerType: 'google', redirectUrl: RETURN_URL, authType: 'x' });
    expect(badAuthType.status).toBe(400);
    expect(badAuthType.body.error.validation[0].field).toBe('authType');
    const noProcess = new Client(server.url, 'pro-1');
    expect((await noProcess.request('POST', '/v2/auth/social/verify/start', { providerType: 'google', redirectUrl: RETURN_URL, authType: 'login' })).status).toBe(404);
  });

  it('is refused once the process has moved past the init block', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init(WITHOUT_PASSKEYS, 'signup-init');
    const email = uniqueEmail('social-late');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Late Starter' });
    const block = await client.step('/v2/auth/social/verify/start', { providerType: 'google', redirectUrl: RETURN_URL, authType: 'signup' });
    expect(block.block).toBe('email-verify');
    expect(block.error.code).toBe('unexpected_step');
  });
});

describe('[spec 7.social-callback] [spec 7.social-finish] [spec 3.full-user] [spec 4.login-path] sign-up and log-in, per provider', () => {
  it.each(PROVIDERS)('%s: a vouched-for address signs up, verified, with the provider account', async (provider) => {
    const email = uniqueEmail(`social-new-${provider}`);
    const { client, finished } = await socialSignIn('pro-1', { email, name: 'Ada Social', vouched: true }, { provider });
    expect(finished.block).toBe('completed');
    expect(finished.authType).toBe('signup');
    expect(finished.data.passkeyOperation).toBeUndefined();
    expect(jwtPayload(finished.data.shortSession)).toMatchObject({ orig: email, name: 'Ada Social', email, email_verified: true });
    const user = await me(client);
    expect(user.fullName).toBe('Ada Social');
    expect(user.identifiers).toEqual([{ id: expect.any(String), value: email, type: 'email', status: 'verified', primary: true }]);
    const avatarUrl = provider === 'github' ? `${server.url}/_dev/oauth/github/avatars/u/${simulatedIds('github', email).numeric}` : '';
    expect(user.socialAccounts).toEqual([{ id: expect.stringMatching(/^soc-/), providerType: provider, identifierValue: email, avatarUrl, fullName: 'Ada Social' }]);
    // the process is over
    const again = await client.step('/v2/auth/social/verify/finish', {});
    expect(again.continueOnOtherDevice).toEqual({ reason: 'process-already-completed' });
  });

  it.each(PROVIDERS)('%s: logs in again with the same provider account, as the same user', async (provider) => {
    const email = uniqueEmail(`social-again-${provider}`);
    const first = await socialSignIn('pro-1', { email, name: 'Otto Again', vouched: true }, { provider });
    const firstUser = await me(first.client);
    // the provider's answer about the address does not matter to a known provider account
    const { client, finished } = await socialSignIn('pro-1', { email, name: 'Otto Renamed', vouched: false }, { provider, authType: 'login' });
    expect(finished.block).toBe('completed');
    expect(finished.authType).toBe('login');
    expect(jwtPayload(finished.data.shortSession)).toMatchObject({ sub: firstUser.id, orig: email });
    const user = await me(client);
    expect(user.id).toBe(firstUser.id);
    // the provider's newer name is kept on the social account, not on the user
    expect(user.fullName).toBe('Otto Again');
    expect(user.socialAccounts).toEqual([expect.objectContaining({ providerType: provider, fullName: 'Otto Renamed' })]);
    // "sign up" with the same account also logs in
    const viaSignup = await socialSignIn('pro-1', { email, vouched: true }, { provider, authType: 'signup' });
    expect(viaSignup.finished.authType).toBe('login');
    expect((await me(viaSignup.client)).id).toBe(firstUser.id);
    // no notice: nothing new was linked
    expect((await outbox(server.url, email)).map((m) => m.subject)).toEqual([]);
  });

  it('offers a skippable passkey when the device can do passkeys', async () => {
    const email = uniqueEmail('social-passkey');
    const { client, finished } = await socialSignIn('pro-1', { email, name: 'Pia Passkey' }, { passkeys: true });
    expect(finished.block).toBe('passkey-append');
    expect(finished.authType).toBe('signup');
    expect(finished.data).toMatchObject({ identifierValue: email, identifierType: 'email' });
    expect(finished.alternatives.map((a: any) => a.block)).toEqual(['completed']);
    const completed = await client.step('/v2/auth/process/complete', {});
    expect(completed.block).toBe('completed');
    expect((await me(client)).socialAccounts).toHaveLength(1);
  });

  it('keys a Microsoft account by tenant and object id, not by its pairwise sub', async () => {
    const email = uniqueEmail('social-ms-key');
    const { client } = await socialSignIn('pro-1', { email, vouched: true }, { provider: 'microsoft' });
    const ids = simulatedIds('microsoft', email);
    const stored = await server.api.store.socialAccounts.listByUser((await me(client)).id);
    expect(stored.map((a) => a.subject)).toEqual([`${SIMULATOR_MICROSOFT_TENANT}:${ids.guid}`]);
    expect(microsoftPairwiseSubject('pro-1', ids.guid)).not.toBe(microsoftPairwiseSubject('pro-2', ids.guid));
  });

  it('does not sign up where public sign-up is closed (pro-5)', async () => {
    const { finished } = await socialSignIn('pro-5', { email: uniqueEmail('social-closed') }, { authType: 'login' });
    expect(finished.block).toBe('login-init');
    expect(finished.data.error).toEqual({
      code: 'social_signup_disabled',
      message: 'There is no account for this e-mail address, and this app does not allow sign-ups.',
    });
  });

  it('collects what the project requires and the provider does not tell (a username)', async () => {
    const projectId = await createProject(server.url, {
      identifiers: { email: {}, username: {} },
      passkeyAppend: 'before-verification',
      socialProviders: ['google', 'github'],
    });
    const email = uniqueEmail('social-username');
    const { client, finished } = await socialSignIn(projectId, { email }, { passkeys: true, provider: 'github' });
    expect(finished.block).toBe('passkey-append');
    expect(finished.alternatives.map((a: any) => a.block)).toEqual(['completed']);
    const collect = await client.step('/v2/auth/process/complete', {});
    expect(collect.block).toBe('username-collect');
    const username = uniqueUsername('soc');
    const completed = await client.step('/v2/auth/username/collect', { username });
    expect(completed.block).toBe('completed');
    const user = await me(client);
    expect(user.identifiers.map((i: any) => [i.type, i.value, i.status])).toEqual([
      ['email', email, 'verified'],
      ['username', username, 'verified'],
    ]);
  });
});

describe("each provider's rule for trusting an address", () => {
  it.each(PROVIDERS)('%s: an address it does not vouch for signs up pending, and the code right after proves it', async (provider) => {
    const email = uniqueEmail(`social-unvouched-${provider}`);
    const { client, finished } = await socialSignIn('pro-1', { email, name: 'Una Vouched', vouched: false }, { provider });
    // the account exists (the provider account is a way back in) and asks for a code to the address
    expect(finished.block).toBe('post-signup-email-verify');
    expect(finished.authType).toBe('signup');
    expect(finished.data).toMatchObject({ identifier: email, verificationMethod: 'email-otp' });
    expect(finished.alternatives.map((a: any) => a.block)).toEqual(['completed']);
    const done = await enterEmailCode(client, email);
    expect(done.block).toBe('completed');
    expect(jwtPayload(done.data.shortSession)).toMatchObject({ email, email_verified: true });
    const user = await me(client);
    expect(user.identifiers).toEqual([expect.objectContaining({ value: email, status: 'verified' })]);
    expect(user.socialAccounts).toEqual([expect.objectContaining({ providerType: provider })]);
  });

  it('lets the person in with the address pending when they put the code off; the token names no address', async () => {
    const email = uniqueEmail('social-later');
    const { client, finished } = await socialSignIn('pro-1', { email, vouched: false }, { provider: 'microsoft', passkeys: true });
    // a passkey first, skippable: the provider account is a way back in
    expect(finished.block).toBe('passkey-append');
    expect(finished.alternatives.map((a: any) => a.block)).toEqual(['completed']);
    expect((await client.step('/v2/auth/block/skip', {})).block).toBe('post-signup-email-verify');
    const later = await client.step('/v2/auth/block/skip', {});
    expect(later.block).toBe('completed');
    const claims = jwtPayload(later.data.shortSession);
    expect(claims.orig).toBe(email);
    expect(claims.email).toBeUndefined();
    expect(claims.email_verified).toBeUndefined();
    expect((await me(client)).identifiers).toEqual([expect.objectContaining({ value: email, status: 'pending' })]);
    // the provider account logs the person in again, still pending
    const again = await socialSignIn('pro-1', { email, vouched: false }, { provider: 'microsoft', authType: 'login' });
    expect(again.finished.block).toBe('completed');
    expect((await me(again.client)).id).toBe((await me(client)).id);
  });
});

describe('linking to an existing account', () => {
  async function emailUser(projectId = 'pro-1'): Promise<{ email: string; client: Client }> {
    const email = uniqueEmail('social-otp-user');
    const client = new Client(server.url, projectId);
    await client.init(WITHOUT_PASSKEYS, 'signup-init');
    await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Erna Email' });
    const done = await enterEmailCode(client, email);
    expect(done.block).toBe('completed');
    return { email, client };
  }

  it.each(PROVIDERS)('%s: a vouched-for address links to the verified account at once, and the owner is told by e-mail', async (provider) => {
    const { email, client: signup } = await emailUser();
    // the provider reports the address in other letter case
    const { client, finished } = await socialSignIn('pro-1', { email: email.toUpperCase(), name: 'Erna', vouched: true }, { provider });
    expect(finished.block).toBe('completed');
    expect(finished.authType).toBe('login');
    expect(jwtPayload(finished.data.shortSession).orig).toBe(email);
    const user = await me(client);
    expect(user.id).toBe((await me(signup)).id);
    const [local, domain] = email.toUpperCase().split('@');
    expect(user.socialAccounts).toEqual([expect.objectContaining({ providerType: provider, identifierValue: `${local}@${domain!.toLowerCase()}` })]);
    const [notice] = await outbox(server.url, email);
    const name = { google: 'Google', microsoft: 'Microsoft', github: 'GitHub' }[provider];
    expect(notice!.subject).toBe(`${name} is now linked to your Demo App account`);
    expect(notice!.text).toContain(`From now on you can log in to Demo App with your ${name} account (${local}@${domain!.toLowerCase()}).`);
    expect(notice!.text).toContain('Was this not you?');
    expect(notice!.html).toContain(`${name} was linked`);
  });

  it.each(PROVIDERS)('%s: an address it does not vouch for links only after a code to that address', async (provider) => {
    const { email, client: signup } = await emailUser();
    const owner = (await me(signup)).id;
    const before = (await outbox(server.url, email)).length;
    const { client, finished } = await socialSignIn('pro-1', { email, vouched: false }, { provider });
    expect(finished.block).toBe('email-verify');
    expect(finished.authType).toBe('login');
    expect(finished.data).toMatchObject({ identifier: email, verificationMethod: 'email-otp' });
    // nothing is linked and nobody is logged in until the code comes back
    expect(await server.api.store.socialAccounts.listByUser(owner)).toEqual([]);
    expect((await client.step('/v2/auth/process/complete', {})).error.code).toBe('unexpected_step');
    expect((await client.step('/v2/auth/block/skip', {})).error.code).toBe('unexpected_step');
    const wrong = await client.step('/v2/auth/identifier/verify/finish', { code: '000000', identifierType: 'email', verificationType: 'email-otp', isNewDevice: false });
    expect(wrong.data.error.code).toBe('invalid_challenge_solution_email-otp');
    expect(await server.api.store.socialAccounts.listByUser(owner)).toEqual([]);
    const messages = await outbox(server.url, email);
    expect(messages.length).toBe(before + 1);
    const done = await client.step('/v2/auth/identifier/verify/finish', {
      code: messages[0]!.code!,
      identifierType: 'email',
      verificationType: 'email-otp',
      isNewDevice: false,
    });
    expect(done.block).toBe('completed');
    expect((await me(client)).id).toBe(owner);
    expect((await me(client)).socialAccounts).toEqual([expect.objectContaining({ providerType: provider })]);
    expect((await outbox(server.url, email))[0]!.subject).toMatch(/is now linked to your Demo App account$/);
  });

  it('tells the owner in the project’s language', async () => {
    const projectId = await createProject(server.url, { language: 'de', appName: 'Laden', socialProviders: ['github'] });
    const { email } = await emailUser(projectId);
    await socialSignIn(projectId, { email, vouched: true }, { provider: 'github' });
    const [notice] = await outbox(server.url, email);
    expect(notice!.subject).toBe('GitHub ist jetzt mit deinem Konto bei Laden verknüpft');
    expect(notice!.text).toContain('Hallo,\n\nab jetzt kannst du dich bei Laden mit deinem GitHub-Konto');
    expect(notice!.html).toContain('lang="de"');
  });

  it('does not link to an account whose e-mail address nobody verified: it signs up and takes the address', async () => {
    const projectId = await createProject(server.url, {
      identifiers: { email: { verification: 'none' } },
      passkeyAppend: 'before-verification',
      socialProviders: ['google'],
    });
    const email = uniqueEmail('social-pending');
    const signup = new Client(server.url, projectId);
    await signup.init(WITH_PASSKEYS, 'signup-init');
    await signup.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
    const startedAppend = await signup.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    const appended = await signup.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(startedAppend.data.challenge) });
    expect(appended.block).toBe('completed');
    expect((await me(signup)).identifiers[0].status).toBe('pending');

    // the provider verified the address; a pending copy elsewhere proves nothing (issue 13)
    const pendingHolder = (await me(signup)).id;
    const { client, finished } = await socialSignIn(projectId, { email, vouched: true });
    expect(finished.block).toBe('completed');
    expect(finished.authType).toBe('signup');
    const user = await me(client);
    expect(user.id).not.toBe(pendingHolder);
    expect(user.identifiers).toEqual([expect.objectContaining({ value: email, status: 'verified' })]);
    expect((await me(signup)).identifiers).toEqual([]);
  });
});

describe('unlinking on the account page', () => {
  it('unlinks one of two providers; the last way in stays, and another user’s id is not found', async () => {
    const email = uniqueEmail('social-unlink');
    const first = await socialSignIn('pro-1', { email, vouched: false }, { provider: 'microsoft' });
    await first.client.step('/v2/auth/block/skip', {}); // the code put off: no verified address
    const second = await socialSignIn('pro-1', { email, vouched: false }, { provider: 'github' });
    // GitHub does not vouch either: the address is pending, so there is no verified holder to link to
    expect(second.finished.block).toBe('post-signup-email-verify');
    const { client } = await socialSignIn('pro-1', { email, vouched: false }, { provider: 'microsoft', authType: 'login' });
    const [microsoft] = (await me(client)).socialAccounts;
    expect((await me(client)).socialAccounts).toHaveLength(1);
    const stranger = await socialSignIn('pro-1', { email: uniqueEmail('stranger'), vouched: true }, { provider: 'google' });
    const foreign = await stranger.client.request('DELETE', '/v2/me/social-account', { socialAccountID: microsoft.id });
    expect(foreign.status).toBe(404);
    // the only way in: refused
    const last = await client.request('DELETE', '/v2/me/social-account', { socialAccountID: microsoft.id });
    expect(last.status).toBe(400);
    expect(last.body.error.type).toBe('last_login_identifier');
    expect((await me(client)).socialAccounts).toHaveLength(1);

    // with a verified address too, it goes
    const linked = await socialSignIn('pro-1', { email: uniqueEmail('two-ways'), vouched: true }, { provider: 'google' });
    const [google] = (await me(linked.client)).socialAccounts;
    const gone = await linked.client.request('DELETE', '/v2/me/social-account', { socialAccountID: google.id });
    expect(gone.status).toBe(200);
    expect((await me(linked.client)).socialAccounts).toEqual([]);
    expect((await linked.client.request('DELETE', '/v2/me/social-account', { socialAccountID: google.id })).status).toBe(404);
    expect((await new Client(server.url, 'pro-1').request('DELETE', '/v2/me/social-account', { socialAccountID: google.id })).status).toBe(401);
  });
});

describe('a project with sign-up fields', () => {
  const TERMS = { id: 'terms', type: 'checkbox', label: { en: 'I accept the [terms]', de: 'Ich akzeptiere die [AGB]' }, url: 'https://shop.example/terms', version: 'v2', required: true };
  const withTerms = () => createProject(server.url, { socialProviders: ['google'], signupFields: [TERMS] });

  it('[security] does not create an account through a provider without the required answers', async () => {
    const projectId = await withTerms();
    const email = uniqueEmail('social-no-terms');
    for (const authType of ['signup', 'login'] as const) {
      const { client, finished } = await socialSignIn(projectId, { email }, { authType });
      // back to the sign-up form, whose fields a new account needs
      expect(finished.block).toBe('signup-init');
      expect(finished.error.code).toBe('social_signup_fields_missing');
      expect((await client.request('GET', '/v2/me')).status).toBe(401);
    }
    // a forged or outdated answer at the start is refused there, before the provider is asked
    const client = new Client(server.url, projectId);
    await client.init(WITHOUT_PASSKEYS, 'signup-init');
    const refused = await client.step('/v2/auth/social/verify/start', {
      providerType: 'google',
      redirectUrl: RETURN_URL,
      authType: 'signup',
      signupFields: [{ id: 'terms', accepted: true, version: 'v1' }],
    });
    expect(refused.block).toBe('signup-init');
    expect(refused.data.socialData.status).toBe('initial');
    expect(refused.data.signupFields[0].error.code).toBe('signup_field_outdated');
  });

  it('creates the account with the answers given at the start, and lets it log in again without them', async () => {
    const projectId = await withTerms();
    const email = uniqueEmail('social-terms');
    const { client, finished } = await socialSignIn(projectId, { email }, { signupFields: [{ id: 'terms', accepted: true, version: 'v2' }] });
    expect(finished.block).toBe('completed');
    expect((await me(client)).signupFields).toEqual([expect.objectContaining({ id: 'terms', accepted: true, version: 'v2' })]);
    const again = await socialSignIn(projectId, { email }, { authType: 'login' });
    expect(again.finished.block).toBe('completed');
  });
});

describe('failures', () => {
  it.each(PROVIDERS)('%s: cancel -> the init block shows social_login_cancelled once, and finish is refused', async (provider) => {
    const { client, oauthUrl } = await started('pro-1', provider);
    const back = await consent(oauthUrl.toString(), { action: 'deny' });
    expect(back.searchParams.get('error')).toBe('access_denied');
    // Microsoft says why in error_subcode
    expect(back.searchParams.get('error_subcode')).toBe(provider === 'microsoft' ? 'cancel' : null);
    expect(back.searchParams.get('state')).toBe(oauthUrl.searchParams.get('state'));
    expect(back.searchParams.get('code')).toBeNull();
    const callback = await client.callback(back);
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe(RETURN_URL);

    const resumed = await client.getStep('/v2/auth/process');
    expect(resumed.block).toBe('signup-init');
    expect(resumed.data.error).toEqual({ code: 'social_login_cancelled', message: 'The sign-in with the provider was cancelled.' });
    expect(resumed.error).toEqual(resumed.data.error);
    expect(resumed.data.socialData).toEqual({ providers: ['google', 'microsoft', 'github'], status: 'finished' });
    const later = await client.getStep('/v2/auth/process');
    expect(later.data.error).toBeUndefined();
    expect(later.data.socialData.status).toBe('initial');
    const finish = await client.step('/v2/auth/social/verify/finish', {});
    expect(finish.data.error.code).toBe('unexpected_step');
    expect((await client.startSocial(provider)).data.socialData.oauthUrl).toBeTruthy();
  });

  it('answers an unknown, missing or superseded state with a 400 page', async () => {
    const missing = await get(`${server.url}/v2/auth/social/verify/callback?code=abc`);
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('no state parameter');
    const unknown = await get(`${server.url}/v2/auth/social/verify/callback?code=abc&state=not-a-state`);
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();
    expect(unknown.text).toContain('<h1>This sign-in cannot continue</h1>');

    const { client, oauthUrl } = await started();
    await client.startSocial('github');
    const stale = await client.callback(`${server.url}/v2/auth/social/verify/callback?code=abc&state=${oauthUrl.searchParams.get('state')}`);
    expect(stale.status).toBe(400);
  });

  it('fails in-band for a code the provider does not know or that expired', async () => {
    const bogus = await started();
    const state = bogus.oauthUrl.searchParams.get('state')!;
    expect((await bogus.client.callback(`${server.url}/v2/auth/social/verify/callback?code=bogus&state=${state}`)).status).toBe(302);
    expect((await bogus.client.getStep('/v2/auth/process')).data.error.code).toBe('social_login_failed');

    const slow = await started('pro-1', 'github');
    const back = await consent(slow.oauthUrl.toString(), { email: uniqueEmail('social-slow') });
    server.clock.advance(5 * 60_000 + 1);
    expect((await slow.client.callback(back)).status).toBe(302);
    const resumed = await slow.client.getStep('/v2/auth/process');
    expect(resumed.data.error).toEqual({ code: 'social_login_failed', message: 'The sign-in with the provider did not work. Please try again.' });
  });

  it('treats other provider errors as failed, and a callback after the process moved on as expired', async () => {
    const { client, oauthUrl } = await started();
    const state = oauthUrl.searchParams.get('state')!;
    expect((await client.callback(`${server.url}/v2/auth/social/verify/callback?error=server_error&state=${state}`)).status).toBe(302);
    expect((await client.getStep('/v2/auth/process')).data.error.code).toBe('social_login_failed');

    const moved = await started();
    await moved.client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail('moved') }], fullName: 'Mo Ved' });
    const late = await moved.client.callback(`${server.url}/v2/auth/social/verify/callback?code=x&state=${moved.oauthUrl.searchParams.get('state')}`);
    expect(late.status).toBe(400);
  });

  it('refuses GitHub’s refusal, which comes with HTTP 200', async () => {
    const { client, oauthUrl } = await started('pro-1', 'github');
    const back = await consent(oauthUrl.toString(), { email: uniqueEmail('gh-refused'), fault: 'token-error' });
    expect((await client.callback(back)).status).toBe(302);
    const resumed = await client.getStep('/v2/auth/process');
    expect(resumed.data.error.code).toBe('social_login_failed');
  });

  it('refuses social providers for a project without e-mail addresses', async () => {
    const res = await postProject(server.url, { identifiers: { email: { enabled: false }, username: {} }, socialProviders: ['google'] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.validation).toEqual([{ field: 'socialProviders', message: expect.any(String) }]);
  });
});

describe('the simulators', () => {
  const authorize = (path: string, params: Record<string, string>) => `${server.url}/_dev/oauth/${path}?${new URLSearchParams(params).toString()}`;
  const valid = { client_id: 'pro-1', redirect_uri: 'http://localhost:3001/cb', state: 's1', response_type: 'code', scope: 'openid email profile' };
  const GOOGLE = 'google/o/oauth2/v2/auth';
  const token = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/_dev/oauth/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body).toString(),
    });

  it('shows an escaped, styled consent page that says it is a local simulator', async () => {
    const page = await get(authorize('github/login/oauth/authorize', { ...valid, client_id: '<script>alert(1)</script>' }));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain('Local simulator');
    expect(page.text).toContain('Sign in with GitHub');
    expect(page.text).toContain('value="alan.turing@example.com"');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toContain('<script>');
    expect(page.text).toMatch(/<button[^>]*value="allow"[^>]*>Continue<\/button>/);
    expect(page.text).toMatch(/<button[^>]*value="deny"[^>]*>Cancel<\/button>/);
    // what the provider says about the address, by default as the real one usually does
    expect(page.text).toMatch(/name="vouched" value="yes" checked> <span>GitHub has verified/);
    expect((await get(authorize(GOOGLE, valid))).text).toContain('value="ada.lovelace@example.com"');
    const microsoft = await get(authorize('microsoft/common/oauth2/v2.0/authorize', valid));
    expect(microsoft.text).toMatch(/name="vouched" value="yes"> <span>The tenant owns/);
  });

  it('answers an invalid request with a 400 error page, never a redirect', async () => {
    const cases: [string, Record<string, string>][] = [
      [GOOGLE, { ...valid, redirect_uri: '' }],
      [GOOGLE, { ...valid, redirect_uri: 'ftp://localhost/cb' }],
      [GOOGLE, { ...valid, redirect_uri: 'http://localhost/cb#frag' }],
      [GOOGLE, { ...valid, redirect_uri: 'relative/cb' }],
      [GOOGLE, { ...valid, response_type: 'token' }],
      [GOOGLE, { ...valid, client_id: '' }],
      [GOOGLE, { ...valid, scope: 'email' }],
      [GOOGLE, { ...valid, code_challenge: 'short' }],
      [GOOGLE, { ...valid, code_challenge: 'a'.repeat(43), code_challenge_method: 'S512' }],
      ['github/login/oauth/authorize', { ...valid, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }],
      ['microsoft/not-a-tenant/oauth2/v2.0/authorize', valid],
    ];
    for (const [path, params] of cases) {
      const page = await get(authorize(path, params));
      expect(page.status, JSON.stringify(params)).toBe(400);
      expect(page.headers.get('location')).toBeNull();
      expect(page.text).toContain('This sign-in request is not valid');
    }
  });

  it('answers unknown providers with the 404 envelope', async () => {
    const res = await fetch(authorize('myspace/authorize', valid));
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error.type).toBe('not_found');
  });

  it('refuses a consent form that was not issued for the request', async () => {
    const res = await fetch(authorize(GOOGLE, {}).split('?')[0]!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...valid, consent: 'forged', email: 'a@example.com', action: 'allow' }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('Google: discovery, keys, a code exchanged once with its PKCE verifier, an RS256 ID token with email_verified, userinfo', async () => {
    const discovery = (await (await fetch(`${server.url}/_dev/oauth/google/.well-known/openid-configuration`)).json()) as any;
    expect(discovery).toMatchObject({
      issuer: `${server.url}/_dev/oauth/google`,
      authorization_endpoint: `${server.url}/_dev/oauth/google/o/oauth2/v2/auth`,
      jwks_uri: `${server.url}/_dev/oauth/google/oauth2/v3/certs`,
      code_challenge_methods_supported: ['plain', 'S256'],
    });
    const jwks = (await (await fetch(discovery.jwks_uri)).json()) as any;
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String) })]);

    const email = uniqueEmail('sim');
    const verifier = 'v'.repeat(50);
    const challenge = (await import('node:crypto')).createHash('sha256').update(verifier).digest('base64url');
    const back = await consent(authorize(GOOGLE, { ...valid, nonce: 'n-1', code_challenge: challenge, code_challenge_method: 'S256' }), { email, name: 'Sim User' });
    expect(back.origin + back.pathname).toBe(valid.redirect_uri);
    expect(back.searchParams.get('state')).toBe('s1');
    const code = back.searchParams.get('code')!;
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: valid.redirect_uri, client_id: 'pro-1', client_secret: SIMULATOR_CLIENT_SECRET, code_verifier: verifier };
    expect(((await (await token('google/token', { ...exchange, client_secret: 'wrong' })).json()) as any).error).toBe('invalid_client');
    expect(((await (await token('google/token', { ...exchange, grant_type: 'password' })).json()) as any).error).toBe('unsupported_grant_type');
    expect(await (await token('google/token', { ...exchange, redirect_uri: 'http://localhost:3001/other' })).json()).toMatchObject({ error: 'invalid_grant' });
    expect(await (await token('google/token', { ...exchange, client_id: 'pro-2' })).json()).toMatchObject({ error: 'invalid_grant' });
    expect(await (await token('google/token', { ...exchange, code_verifier: 'w'.repeat(50) })).json()).toMatchObject({ error: 'invalid_grant' });
    const { code_verifier: _left, ...withoutVerifier } = exchange;
    expect(await (await token('google/token', withoutVerifier)).json()).toMatchObject({ error: 'invalid_grant' });

    // the failed attempts above did not spend the code
    const ok = await token('google/token', exchange);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const granted = (await ok.json()) as any;
    expect(granted).toMatchObject({ access_token: expect.stringMatching(/^ya29\./), token_type: 'Bearer', expires_in: 3599, id_token: expect.any(String) });
    const [header] = granted.id_token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'RS256', kid: jwks.keys[0].kid, typ: 'JWT' });
    expect(jwtPayload(granted.id_token)).toMatchObject({
      iss: discovery.issuer,
      aud: 'pro-1',
      azp: 'pro-1',
      sub: simulatedIds('google', email).numeric,
      email,
      email_verified: true,
      name: 'Sim User',
      nonce: 'n-1',
    });
    const userinfo = await fetch(discovery.userinfo_endpoint, { headers: { Authorization: `Bearer ${granted.access_token}` } });
    expect(await userinfo.json()).toEqual({ sub: simulatedIds('google', email).numeric, email, email_verified: true, name: 'Sim User' });
    // another provider does not accept the token
    expect((await fetch(`${server.url}/_dev/oauth/microsoft/graph/oidc/userinfo`, { headers: { Authorization: `Bearer ${granted.access_token}` } })).status).toBe(401);

    const reused = await token('google/token', exchange);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
    // the replay revoked the token the code had been exchanged for
    expect((await fetch(discovery.userinfo_endpoint, { headers: { Authorization: `Bearer ${granted.access_token}` } })).status).toBe(401);
  });

  it('Microsoft: v2.0 endpoints per tenant, a templated issuer for common and organizations, tid/oid, pairwise sub, no email_verified', async () => {
    const common = (await (await fetch(`${server.url}/_dev/oauth/microsoft/common/v2.0/.well-known/openid-configuration`)).json()) as any;
    expect(common.issuer).toBe(`${server.url}/_dev/oauth/microsoft/{tenantid}/v2.0`);
    // consumers names the consumer tenant (socialMicrosoftTenants.test.ts signs in at all three)
    const consumers = (await (await fetch(`${server.url}/_dev/oauth/microsoft/consumers/v2.0/.well-known/openid-configuration`)).json()) as any;
    expect(consumers.issuer).toBe(`${server.url}/_dev/oauth/microsoft/${MICROSOFT_CONSUMER_TENANT}/v2.0`);
    expect(common.token_endpoint).toBe(`${server.url}/_dev/oauth/microsoft/common/oauth2/v2.0/token`);
    expect(common.subject_types_supported).toEqual(['pairwise']);
    expect((await fetch(`${server.url}/_dev/oauth/microsoft/not-a-tenant/v2.0/.well-known/openid-configuration`)).status).toBe(400);

    const email = uniqueEmail('ms-sim');
    const back = await consent(authorize('microsoft/common/oauth2/v2.0/authorize', { ...valid, client_id: 'app-one' }), { email, name: 'Grace Hopper', vouched: false });
    const res = await token('microsoft/common/oauth2/v2.0/token', {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: valid.redirect_uri,
      client_id: 'app-one',
      client_secret: SIMULATOR_CLIENT_SECRET,
    });
    const granted = (await res.json()) as any;
    expect(granted).toMatchObject({ token_type: 'Bearer', ext_expires_in: 3599 });
    const claims = jwtPayload(granted.id_token);
    const oid = simulatedIds('microsoft', email).guid;
    expect(claims).toMatchObject({
      ver: '2.0',
      iss: `${server.url}/_dev/oauth/microsoft/${MICROSOFT_CONSUMER_TENANT}/v2.0`,
      tid: MICROSOFT_CONSUMER_TENANT,
      oid,
      sub: microsoftPairwiseSubject('app-one', oid),
      preferred_username: email,
      email,
    });
    expect(claims).not.toHaveProperty('email_verified');
    expect(claims).not.toHaveProperty('xms_edov');
    const userinfo = (await (await fetch(`${server.url}/_dev/oauth/microsoft/graph/oidc/userinfo`, { headers: { Authorization: `Bearer ${granted.access_token}` } })).json()) as any;
    expect(userinfo).toEqual({ sub: claims.sub, name: 'Grace Hopper', given_name: 'Grace', family_name: 'Hopper', email });
  });

  it('GitHub: a form-encoded token answer unless JSON is asked for, errors with HTTP 200, a REST API that wants a User-Agent and the scope for /user/emails', async () => {
    const email = uniqueEmail('gh-sim');
    const code = async (scope: string) => (await consent(authorize('github/login/oauth/authorize', { client_id: 'gh-app', redirect_uri: valid.redirect_uri, state: 's', scope }), { email })).searchParams.get('code')!;
    const exchange = (c: string, accept?: string) =>
      token('github/login/oauth/access_token', { client_id: 'gh-app', client_secret: SIMULATOR_CLIENT_SECRET, code: c, redirect_uri: valid.redirect_uri }, accept ? { Accept: accept } : {});
    const plain = await exchange(await code('read:user user:email'));
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toContain('application/x-www-form-urlencoded');
    const form = new URLSearchParams(await plain.text());
    expect(form.get('access_token')).toMatch(/^gho_/);
    expect(form.get('scope')).toBe('read:user,user:email');
    expect(form.get('token_type')).toBe('bearer');

    const refused = await exchange('not-a-code', 'application/json');
    expect(refused.status).toBe(200);
    expect(await refused.json()).toMatchObject({ error: 'bad_verification_code', error_uri: expect.stringContaining('docs.github.com') });

    const json = (await (await exchange(await code('read:user'), 'application/json')).json()) as any;
    const api = (path: string, headers: Record<string, string>) => fetch(`${server.url}/_dev/oauth/github/api/${path}`, { headers });
    expect((await api('user', { Authorization: `Bearer ${json.access_token}`, 'User-Agent': '' })).status).toBe(403);
    const user = (await (await api('user', { Authorization: `token ${json.access_token}`, 'User-Agent': 'test' })).json()) as any;
    expect(user).toMatchObject({ id: Number(simulatedIds('github', email).numeric), email: null, type: 'User' });
    // read:user alone does not reach the addresses
    const noScope = await api('user/emails', { Authorization: `Bearer ${json.access_token}`, 'User-Agent': 'test' });
    expect(noScope.status).toBe(404);
    expect(noScope.headers.get('x-accepted-oauth-scopes')).toBe('user, user:email');
    const withScope = new URLSearchParams(await (await exchange(await code('read:user user:email'))).text()).get('access_token')!;
    const emails = (await (await api('user/emails', { Authorization: `Bearer ${withScope}`, 'User-Agent': 'test' })).json()) as any[];
    expect(emails[0]).toEqual({ email, primary: true, verified: true, visibility: 'private' });
    expect(emails[1]).toMatchObject({ primary: false, verified: true, email: expect.stringContaining('@users.noreply.github.com') });
  });
});

describe('configuration', () => {
  it('defaults to the simulators in development and to the real providers in production', () => {
    const development = socialSettings();
    expect(development.google).toMatchObject({ issuer: '/_dev/oauth/google', clientSecret: SIMULATOR_CLIENT_SECRET, scope: 'openid email profile' });
    expect(development.microsoft.issuer).toBe(`/_dev/oauth/microsoft/${SIMULATOR_MICROSOFT_TENANT}/v2.0`);
    const production = socialSettings({}, 'production');
    expect(production.google).toEqual({ issuer: 'https://accounts.google.com', scope: 'openid email profile' });
    expect(production.microsoft).toEqual({ issuer: 'https://login.microsoftonline.com/common/v2.0', scope: 'openid email profile' });
    expect(production.github).toEqual({
      authorizeUrl: 'https://github.com/login/oauth/authorize',
      tokenUrl: 'https://github.com/login/oauth/access_token',
      userinfoUrl: 'https://api.github.com/user',
      emailsUrl: 'https://api.github.com/user/emails',
      scope: 'read:user user:email',
    });
  });

  it('takes issuers, endpoints and the server-wide client from the environment, and refuses unusable URLs', () => {
    const overrides = socialOverridesFromEnv({
      SOCIAL_GOOGLE_ISSUER: 'https://accounts.google.com',
      SOCIAL_GOOGLE_CLIENT_ID: 'id.apps.example',
      SOCIAL_GOOGLE_CLIENT_SECRET: 'secret',
      SOCIAL_MICROSOFT_ISSUER: 'https://login.microsoftonline.us/organizations/v2.0',
      SOCIAL_GITHUB_AUTHORIZE_URL: 'https://ghe.example/login/oauth/authorize',
      SOCIAL_GITHUB_EMAILS_URL: 'https://ghe.example/api/v3/user/emails',
      SOCIAL_GITHUB_SCOPE: 'user:email',
    });
    expect(overrides).toEqual({
      google: { issuer: 'https://accounts.google.com', clientId: 'id.apps.example', clientSecret: 'secret' },
      microsoft: { issuer: 'https://login.microsoftonline.us/organizations/v2.0' },
      github: { authorizeUrl: 'https://ghe.example/login/oauth/authorize', emailsUrl: 'https://ghe.example/api/v3/user/emails', scope: 'user:email' },
    });
    const settings = socialSettings(overrides);
    expect(settings.github).toMatchObject({ tokenUrl: '/_dev/oauth/github/login/oauth/access_token', emailsUrl: 'https://ghe.example/api/v3/user/emails' });
    const none = { production: false, projectClient: async () => undefined };
    expect(() => new SocialProviders(socialSettings({ microsoft: { tokenUrl: 'javascript:alert(1)' } }), none)).toThrow(/SOCIAL_MICROSOFT_TOKEN_URL/);
    expect(() => new SocialProviders(socialSettings({ github: { emailsUrl: 'ghe.example/emails' } }), none)).toThrow(/SOCIAL_GITHUB_EMAILS_URL/);
  });

  it('answers in-band when a provider cannot be reached, at start (discovery) or at the exchange', async () => {
    const other = await startTestServer({
      api: { socialProviders: { google: { issuer: 'http://127.0.0.1:9/nowhere' }, github: { tokenUrl: 'http://127.0.0.1:9/token' }, microsoft: { clientSecret: 'not-the-simulator-secret' } } },
    });
    try {
      const cannotStart = new SocialBrowser(other.url, 'pro-1');
      await cannotStart.init(WITHOUT_PASSKEYS, 'signup-init');
      const block = await cannotStart.step('/v2/auth/social/verify/start', { providerType: 'google', redirectUrl: RETURN_URL, authType: 'signup' });
      expect(block.data.error.code).toBe('social_login_failed');
      expect(block.data.socialData.status).toBe('initial');
      for (const provider of ['github', 'microsoft'] as const) {
        const client = new SocialBrowser(other.url, 'pro-1');
        await client.init(WITHOUT_PASSKEYS, 'signup-init');
        const resumed = await client.roundTrip(provider, { email: uniqueEmail(`unreachable-${provider}`) });
        expect(resumed.data.error.code, provider).toBe('social_login_failed');
      }
    } finally {
      await other.stop();
    }
  });

  it.each(PROVIDERS)('%s: two projects with their own clients (admin command) send the provider their own id and secret', async (provider) => {
    const secret = 'a-key-encryption-secret-of-32-characters!';
    const clients = { [`${provider}-client-a`]: 'secret-a', [`${provider}-client-b`]: 'secret-b' };
    const other = await startTestServer({ api: { keyEncryptionSecret: secret, simulatorClients: clients } });
    const dir = mkdtempSync(join(tmpdir(), 'social-admin-'));
    const env = { ...databaseEnv(other.dir), KEY_ENCRYPTION_SECRET: secret };
    const config = (clientId: string, clientSecret: string) => {
      const file = join(dir, `${clientId}.json`);
      writeFileSync(file, JSON.stringify({ allowedOrigins: ['http://localhost:5173'], environment: 'dev', socialProviders: [provider], socialClients: { [provider]: { clientId, clientSecret } } }));
      return file;
    };
    try {
      const a = await createProject(other.url, { socialProviders: [provider] });
      const b = await createProject(other.url, { socialProviders: [provider] });
      await runAdmin(['projects', 'update', a, config(`${provider}-client-a`, 'secret-a')], env);
      await runAdmin(['projects', 'update', b, config(`${provider}-client-b`, 'secret-b')], env);
      for (const [projectId, clientId] of [
        [a, `${provider}-client-a`],
        [b, `${provider}-client-b`],
      ] as const) {
        const client = new SocialBrowser(other.url, projectId);
        await client.init(WITHOUT_PASSKEYS, 'signup-init');
        const block = await client.startSocial(provider);
        expect(new URL(block.data.socialData.oauthUrl).searchParams.get('client_id')).toBe(clientId);
        const back = await client.callback(await consent(block.data.socialData.oauthUrl, { email: uniqueEmail(`own-client-${provider}`), vouched: true }));
        expect(back.status).toBe(302);
        // the exchange went through with the project's own secret (the simulator knows no other for that client)
        const resumed = await client.getStep('/v2/auth/process');
        expect(resumed.data.error, projectId).toBeUndefined();
        expect((await client.step('/v2/auth/social/verify/finish', {})).block).toBe('completed');
      }
      // project a with b's secret: the provider refuses the client, the sign-in fails
      await runAdmin(['projects', 'update', a, config(`${provider}-client-a`, 'secret-b')], env);
      const wrong = new SocialBrowser(other.url, a);
      await wrong.init(WITHOUT_PASSKEYS, 'signup-init');
      expect((await wrong.roundTrip(provider, { email: uniqueEmail('wrong-secret'), vouched: true })).data.error.code).toBe('social_login_failed');
    } finally {
      await other.stop();
    }
  });
});

describe('the consent form', () => {
  it('keeps what was entered when the address is not valid', async () => {
    const { oauthUrl } = await started();
    const page = await get(oauthUrl.toString());
    const res = await fetch(`${server.url}/_dev/oauth/google/o/oauth2/v2/auth`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...hiddenFields(page.text), email: 'not-an-address', name: 'Nora', action: 'allow' }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toContain('Enter a valid e-mail address.');
    expect(text).toContain('value="Nora"');
  });
});
