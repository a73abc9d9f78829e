/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Social sign-in against the local OAuth simulator, over real HTTP: start, the provider's consent page,
// the callback, finish, and the simulator's own endpoints.
import { describe, expect, it } from 'vitest';
import { ProviderClient, SIMULATOR_CLIENT_SECRET, socialOverridesFromEnv, socialSettings } from '../social/providerClient.ts';
import { simulatedSubject } from '../social/simulator.ts';
import { consent, get, hiddenFields, RETURN_URL, socialSignIn as socialRoundTrip, startSocial, WITH_PASSKEYS, WITHOUT_PASSKEYS } from './helpers/oauthConsent.ts';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { Client, createProject, jwtPayload, latestCode, postProject, serverForThisFile, startTestServer, uniqueEmail, uniqueUsername } from './helpers/testServer.ts';

const server = serverForThisFile();

/** The whole round trip a browser makes on this file's server. */
function socialSignIn(projectId: string, answer: { email: string; name?: string }, options?: Parameters<typeof socialRoundTrip>[3]) {
  return socialRoundTrip(server.url, projectId, answer, options);
}

async function me(client: Client): Promise<any> {
  const res = await client.request('GET', '/v2/me');
  expect(res.status).toBe(200);
  return res.body;
}

describe('social/verify/start', () => {
  it('[spec 1.auth-social] answers the init block of the auth type with the provider URL', async () => {
    const client = new Client(server.url, 'pro-1');
    await client.init(WITHOUT_PASSKEYS, 'login-init');
    const block = await startSocial(client, 'microsoft', 'signup');
    expect(block.block).toBe('signup-init');
    expect(block.data.socialData.providers).toEqual(['google', 'microsoft', 'github']);
    const url = new URL(block.data.socialData.oauthUrl);
    expect(url.origin + url.pathname).toBe(`${server.url}/_dev/oauth/microsoft/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'pro-1',
      redirect_uri: `${server.url}/v2/auth/social/verify/callback`,
      state: expect.stringMatching(/^[\w-]{43}$/),
      response_type: 'code',
      scope: 'openid email profile',
    });
    // a second start gets a new state
    const again = await startSocial(client, 'microsoft', 'login');
    expect(again.block).toBe('login-init');
    expect(new URL(again.data.socialData.oauthUrl).searchParams.get('state')).not.toBe(url.searchParams.get('state'));
  });

  it('signs up only where public sign-up is open (pro-5 answers login-init)', async () => {
    const client = new Client(server.url, 'pro-5');
    await client.init(WITHOUT_PASSKEYS);
    expect((await startSocial(client, 'github', 'signup')).block).toBe('login-init');
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

describe('the simulator', () => {
  const authorize = (provider: string, params: Record<string, string>) =>
    `${server.url}/_dev/oauth/${provider}/authorize?${new URLSearchParams(params).toString()}`;
  const valid = { client_id: 'pro-1', redirect_uri: 'http://localhost:3001/cb', state: 's1', response_type: 'code', scope: 'openid email profile' };

  it('shows an escaped, styled consent page that says it is a local simulator', async () => {
    const page = await get(authorize('github', { ...valid, client_id: '<script>alert(1)</script>' }));
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
    expect((await get(authorize('google', valid))).text).toContain('value="ada.lovelace@example.com"');
  });

  it('answers an invalid request with a 400 error page, never a redirect', async () => {
    const cases: Record<string, string>[] = [
      { ...valid, redirect_uri: '' },
      { ...valid, redirect_uri: 'ftp://localhost/cb' },
      { ...valid, redirect_uri: 'http://localhost/cb#frag' },
      { ...valid, redirect_uri: 'relative/cb' },
      { ...valid, response_type: 'token' },
      { ...valid, client_id: '' },
    ];
    for (const params of cases) {
      const page = await get(authorize('google', params));
      expect(page.status, JSON.stringify(params)).toBe(400);
      expect(page.headers.get('location')).toBeNull();
      expect(page.text).toContain('This sign-in request is not valid');
    }
    const { response_type: _omitted, ...withoutResponseType } = valid;
    expect((await get(authorize('google', withoutResponseType))).status).toBe(400);
  });

  it('answers unknown providers with the 404 envelope', async () => {
    const res = await fetch(authorize('myspace', valid));
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error.type).toBe('not_found');
  });

  it('refuses a consent form that was not issued for the request', async () => {
    const res = await fetch(`${server.url}/_dev/oauth/google/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...valid, consent: 'forged', email: 'a@example.com', action: 'allow' }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });

  it('redirects with a code and the state, and exchanges a code exactly once', async () => {
    const email = uniqueEmail('sim');
    const back = await consent(authorize('google', valid), { email, name: 'Sim User' });
    expect(back.origin + back.pathname).toBe(valid.redirect_uri);
    expect(back.searchParams.get('state')).toBe('s1');
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^[\w-]{43}$/);

    const token = (body: Record<string, string>) =>
      fetch(`${server.url}/_dev/oauth/google/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      });
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: valid.redirect_uri, client_id: 'pro-1', client_secret: SIMULATOR_CLIENT_SECRET };
    expect(((await (await token({ ...exchange, client_secret: 'wrong' })).json()) as any).error).toBe('invalid_client');
    expect(((await (await token({ ...exchange, grant_type: 'password' })).json()) as any).error).toBe('unsupported_grant_type');
    const mismatched = await token({ ...exchange, redirect_uri: 'http://localhost:3001/other' });
    expect(mismatched.status).toBe(400);
    expect(await mismatched.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await (await token({ ...exchange, client_id: 'pro-2' })).json()).toMatchObject({ error: 'invalid_grant' });

    const ok = await token(exchange);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    const granted = (await ok.json()) as any;
    expect(granted).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });

    const userinfo = await fetch(`${server.url}/_dev/oauth/google/userinfo`, { headers: { Authorization: `Bearer ${granted.access_token}` } });
    expect(await userinfo.json()).toEqual({ sub: simulatedSubject('google', email), email, email_verified: true, name: 'Sim User' });
    // another provider does not accept the token
    expect((await fetch(`${server.url}/_dev/oauth/github/userinfo`, { headers: { Authorization: `Bearer ${granted.access_token}` } })).status).toBe(401);

    const reused = await token(exchange);
    expect(reused.status).toBe(400);
    expect(await reused.json()).toMatchObject({ error: 'invalid_grant' });
    // the replay revoked the token the code had been exchanged for
    expect((await fetch(`${server.url}/_dev/oauth/google/userinfo`, { headers: { Authorization: `Bearer ${granted.access_token}` } })).status).toBe(401);
    expect((await fetch(`${server.url}/_dev/oauth/google/userinfo`)).status).toBe(401);
  });

  it('lets codes expire after 5 minutes', async () => {
    const back = await consent(authorize('microsoft', valid), { email: uniqueEmail('late') });
    server.clock.advance(5 * 60_000 + 1);
    const res = await fetch(`${server.url}/_dev/oauth/microsoft/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: valid.redirect_uri,
        client_id: 'pro-1',
        client_secret: SIMULATOR_CLIENT_SECRET,
      }).toString(),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('gives stable subjects per provider and e-mail address', () => {
    expect(simulatedSubject('google', 'Ada@Example.com')).toBe(simulatedSubject('google', 'ada@example.com'));
    expect(simulatedSubject('google', 'ada@example.com')).not.toBe(simulatedSubject('github', 'ada@example.com'));
    expect(simulatedSubject('google', 'ada@example.com')).toMatch(/^\d{21}$/);
  });
});

describe('sign-up and log-in with a provider', () => {
  it('[spec 7.social-callback] [spec 7.social-finish] [spec 3.full-user] consent -> callback -> finish creates the user with the social account', async () => {
    const email = uniqueEmail('social-new');
    const { client, finished } = await socialSignIn('pro-1', { email, name: 'Ada Social' });
    expect(finished.block).toBe('completed');
    expect(finished.authType).toBe('signup');
    expect(finished.data.shortSession).toBeTruthy();
    expect(finished.data.passkeyOperation).toBeUndefined();
    expect(jwtPayload(finished.data.shortSession)).toMatchObject({ orig: email, name: 'Ada Social' });
    const user = await me(client);
    expect(user.fullName).toBe('Ada Social');
    expect(user.identifiers).toEqual([{ id: expect.any(String), value: email, type: 'email', status: 'verified', primary: true }]);
    expect(user.socialAccounts).toEqual([{ providerType: 'google', identifierValue: email, avatarUrl: '', fullName: 'Ada Social' }]);
    // the process is over
    const again = await client.step('/v2/auth/social/verify/finish', {});
    expect(again.continueOnOtherDevice).toEqual({ reason: 'process-already-completed' });
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

  it('[spec 4.login-path] logs in again with the same provider account, as the same user', async () => {
    const email = uniqueEmail('social-again');
    const first = await socialSignIn('pro-1', { email, name: 'Otto Again' });
    const firstUser = await me(first.client);
    const { client, finished } = await socialSignIn('pro-1', { email, name: 'Otto Renamed' }, { authType: 'login' });
    expect(finished.block).toBe('completed');
    expect(finished.authType).toBe('login');
    expect(jwtPayload(finished.data.shortSession)).toMatchObject({ sub: firstUser.id, orig: email });
    const user = await me(client);
    expect(user.id).toBe(firstUser.id);
    // the provider's newer name is kept on the social account, not on the user
    expect(user.fullName).toBe('Otto Again');
    expect(user.socialAccounts).toEqual([{ providerType: 'google', identifierValue: email, avatarUrl: '', fullName: 'Otto Renamed' }]);
    // "sign up" with the same account also logs in
    const viaSignup = await socialSignIn('pro-1', { email }, { authType: 'signup' });
    expect(viaSignup.finished.authType).toBe('login');
    expect((await me(viaSignup.client)).id).toBe(firstUser.id);
  });

  it('links another provider with the same verified e-mail address to the user', async () => {
    const email = uniqueEmail('social-link');
    const first = await socialSignIn('pro-1', { email, name: 'Lin Link' });
    server.clock.advance(1000); // the accounts are listed in the order they were linked
    const { client, finished } = await socialSignIn('pro-1', { email, name: 'Lin on GitHub' }, { provider: 'github', authType: 'login', passkeys: true });
    // a log-in on a passkey-capable device without a passkey offers one, skippable
    expect(finished.block).toBe('passkey-append');
    expect(finished.authType).toBe('login');
    expect(finished.alternatives.map((a: any) => a.block)).toEqual(['completed']);
    expect((await client.step('/v2/auth/block/skip', {})).block).toBe('completed');
    const user = await me(client);
    expect(user.id).toBe((await me(first.client)).id);
    expect(user.socialAccounts.map((a: any) => a.providerType)).toEqual(['google', 'github']);
  });

  it('links the provider account to a user who signed up with an e-mail code', async () => {
    const email = uniqueEmail('social-otp-user');
    const signup = new Client(server.url, 'pro-1');
    await signup.init(WITHOUT_PASSKEYS, 'signup-init');
    await signup.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Erna Email' });
    const done = await signup.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
      isNewDevice: false,
    });
    expect(done.block).toBe('completed');
    // the provider reports the address in other letter case
    const { client, finished } = await socialSignIn('pro-1', { email: email.toUpperCase(), name: 'Erna' }, { provider: 'microsoft' });
    expect(finished.block).toBe('completed');
    expect(finished.authType).toBe('login');
    expect(jwtPayload(finished.data.shortSession).orig).toBe(email);
    const user = await me(client);
    expect(user.id).toBe((await me(signup)).id);
    // the provider's address in the stored form of every address: the domain in lower case
    const [local, domain] = email.toUpperCase().split('@');
    expect(user.socialAccounts).toEqual([{ providerType: 'microsoft', identifierValue: `${local}@${domain!.toLowerCase()}`, avatarUrl: '', fullName: 'Erna' }]);
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
    const started = await signup.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    const appended = await signup.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(started.data.challenge) });
    expect(appended.block).toBe('completed');
    expect((await me(signup)).identifiers[0].status).toBe('pending');

    // the provider verified the address; a pending copy elsewhere proves nothing (issue 13)
    const pendingHolder = (await me(signup)).id;
    const { client, finished } = await socialSignIn(projectId, { email });
    expect(finished.block).toBe('completed');
    expect(finished.authType).toBe('signup');
    const user = await me(client);
    expect(user.id).not.toBe(pendingHolder);
    expect(user.identifiers).toEqual([expect.objectContaining({ value: email, status: 'verified' })]);
    expect((await me(signup)).identifiers).toEqual([]);
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
  async function started(projectId = 'pro-1'): Promise<{ client: Client; oauthUrl: URL }> {
    const client = new Client(server.url, projectId);
    await client.init(WITHOUT_PASSKEYS, 'signup-init');
    const block = await startSocial(client);
    return { client, oauthUrl: new URL(block.data.socialData.oauthUrl) };
  }

  it('cancel -> the init block shows social_login_cancelled once, and finish is refused', async () => {
    const { client, oauthUrl } = await started();
    const back = await consent(oauthUrl.toString(), { action: 'deny' });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(oauthUrl.searchParams.get('state'));
    expect(back.searchParams.get('code')).toBeNull();
    const callback = await get(back.toString());
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe(RETURN_URL);

    const resumed = await client.getStep('/v2/auth/process');
    expect(resumed.block).toBe('signup-init');
    expect(resumed.data.error).toEqual({ code: 'social_login_cancelled', message: 'The sign-in with the provider was cancelled.' });
    // the same error as blockBody.error: the popup
    expect(resumed.error).toEqual(resumed.data.error);
    // not "initial", so the client keeps the process and shows the error
    expect(resumed.data.socialData).toEqual({ providers: ['google', 'microsoft', 'github'], status: 'finished' });
    const later = await client.getStep('/v2/auth/process');
    expect(later.data.error).toBeUndefined();
    expect(later.error).toBeUndefined();
    expect(later.data.socialData.status).toBe('initial');
    const finish = await client.step('/v2/auth/social/verify/finish', {});
    expect(finish.data.error.code).toBe('unexpected_step');
    // and a new attempt works
    expect((await startSocial(client)).data.socialData.oauthUrl).toBeTruthy();
  });

  it('rejects a replayed callback (the state is single-use) and a reused code', async () => {
    const { client, oauthUrl } = await started();
    const back = await consent(oauthUrl.toString(), { email: uniqueEmail('social-replay') });
    expect((await get(back.toString())).status).toBe(302);
    const replay = await get(back.toString());
    expect(replay.status).toBe(400);
    expect(replay.headers.get('content-type')).toContain('text/html');
    expect(replay.text).toContain('already completed');
    // the process keeps the first result
    expect((await client.getStep('/v2/auth/process')).data.socialData.status).toBe('finished');

    // the same code on another process's callback: the provider refuses it, so the sign-in fails
    const other = await started();
    const otherState = other.oauthUrl.searchParams.get('state')!;
    const reuse = await get(`${server.url}/v2/auth/social/verify/callback?code=${back.searchParams.get('code')}&state=${otherState}`);
    expect(reuse.status).toBe(302);
    const failed = await other.client.getStep('/v2/auth/process');
    expect(failed.data.error.code).toBe('social_login_failed');
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
    await startSocial(client, 'github');
    const stale = await get(`${server.url}/v2/auth/social/verify/callback?code=abc&state=${oauthUrl.searchParams.get('state')}`);
    expect(stale.status).toBe(400);
  });

  it('fails in-band for a code the provider does not know or that expired', async () => {
    const bogus = await started();
    const state = bogus.oauthUrl.searchParams.get('state')!;
    expect((await get(`${server.url}/v2/auth/social/verify/callback?code=bogus&state=${state}`)).status).toBe(302);
    expect((await bogus.client.getStep('/v2/auth/process')).data.error.code).toBe('social_login_failed');

    const slow = await started();
    const back = await consent(slow.oauthUrl.toString(), { email: uniqueEmail('social-slow') });
    server.clock.advance(5 * 60_000 + 1);
    expect((await get(back.toString())).status).toBe(302);
    const resumed = await slow.client.getStep('/v2/auth/process');
    expect(resumed.data.error).toEqual({ code: 'social_login_failed', message: 'The sign-in with the provider did not work. Please try again.' });
  });

  it('treats other provider errors as failed, and a callback after the process moved on as expired', async () => {
    const { client, oauthUrl } = await started();
    const state = oauthUrl.searchParams.get('state')!;
    expect((await get(`${server.url}/v2/auth/social/verify/callback?error=server_error&state=${state}`)).status).toBe(302);
    expect((await client.getStep('/v2/auth/process')).data.error.code).toBe('social_login_failed');

    const moved = await started();
    await moved.client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail('moved') }], fullName: 'Mo Ved' });
    const late = await get(`${server.url}/v2/auth/social/verify/callback?code=x&state=${moved.oauthUrl.searchParams.get('state')}`);
    expect(late.status).toBe(400);
  });

  it('refuses social providers for a project without e-mail addresses', async () => {
    const res = await postProject(server.url, { identifiers: { email: { enabled: false }, username: {} }, socialProviders: ['google'] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.validation).toEqual([{ field: 'socialProviders', message: expect.any(String) }]);
  });
});

describe('the provider client', () => {
  it('answers in-band when the provider cannot be reached or refuses the client', async () => {
    const server = await startTestServer({
      api: { socialProviders: { google: { clientSecret: 'not-the-simulator-secret' }, github: { tokenUrl: 'http://127.0.0.1:9/token' } } },
    });
    const api = server.api;
    try {
      for (const provider of ['google', 'github'] as const) {
        const client = new Client(api.url, 'pro-1');
        await client.init(WITHOUT_PASSKEYS, 'signup-init');
        const block = await client.step('/v2/auth/social/verify/start', { providerType: provider, redirectUrl: RETURN_URL, authType: 'signup' });
        const page = await fetch(block.data.socialData.oauthUrl);
        const form = new URLSearchParams({
          ...hiddenFields(await page.text()),
          email: uniqueEmail(`unreachable-${provider}`),
          name: 'Una Reachable',
          action: 'allow',
        });
        const consented = await fetch(`${api.url}/_dev/oauth/${provider}/authorize`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
          redirect: 'manual',
        });
        const callback = await fetch(consented.headers.get('location')!, { redirect: 'manual' });
        expect(callback.status, provider).toBe(302);
        const resumed = await client.getStep('/v2/auth/process');
        expect(resumed.data.error.code, provider).toBe('social_login_failed');
      }
    } finally {
      await server.stop();
    }
  });

  it('reads OpenID Connect and GitHub-style profiles', async () => {
    const answers: Record<string, unknown>[] = [
      { access_token: 't1', token_type: 'bearer' },
      { id: 4711, login: 'octocat', email: 'octo@example.com', avatar_url: 'https://avatars.example/u/4711' },
    ];
    const seen: string[] = [];
    const fakeFetch = (async (url: URL | string, init?: RequestInit) => {
      seen.push(`${init?.method} ${String(url)}`);
      return new Response(JSON.stringify(answers.shift()), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }) as typeof fetch;
    const client = new ProviderClient(
      socialSettings({ github: { tokenUrl: 'https://github.example/login/oauth/access_token', userinfoUrl: 'https://api.github.example/user', clientId: 'gh-app' } }),
      { fetch: fakeFetch },
    );
    const profile = await client.signIn('github', { apiBase: 'http://localhost:3001', projectId: 'pro-1', code: 'c', redirectUri: 'http://localhost:3001/cb' });
    expect(profile).toEqual({ subject: '4711', email: 'octo@example.com', emailVerified: false, fullName: 'octocat', avatarUrl: 'https://avatars.example/u/4711' });
    expect(seen).toEqual(['POST https://github.example/login/oauth/access_token', 'GET https://api.github.example/user']);
    const url = new URL(client.authorizationUrl('github', { apiBase: 'http://localhost:3001', projectId: 'pro-1', redirectUri: 'http://localhost:3001/cb', state: 's' }));
    expect(url.origin + url.pathname).toBe('http://localhost:3001/_dev/oauth/github/authorize');
    expect(url.searchParams.get('client_id')).toBe('gh-app');
  });

  it('takes endpoints and credentials from the environment and rejects unusable URLs', () => {
    const overrides = socialOverridesFromEnv({
      SOCIAL_GOOGLE_AUTHORIZE_URL: 'https://accounts.google.com/o/oauth2/v2/auth',
      SOCIAL_GOOGLE_CLIENT_ID: 'id.apps.example',
      SOCIAL_GOOGLE_CLIENT_SECRET: 'secret',
    });
    expect(overrides).toEqual({
      google: {
        authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
        tokenUrl: undefined,
        userinfoUrl: undefined,
        clientId: 'id.apps.example',
        clientSecret: 'secret',
        scope: undefined,
      },
    });
    const settings = socialSettings(overrides);
    expect(settings.google).toMatchObject({ tokenUrl: '/_dev/oauth/google/token', clientId: 'id.apps.example', scope: 'openid email profile' });
    expect(settings.github.clientSecret).toBe(SIMULATOR_CLIENT_SECRET);
    expect(() => new ProviderClient(socialSettings({ microsoft: { tokenUrl: 'javascript:alert(1)' } }))).toThrow(/tokenUrl/);
  });
});
