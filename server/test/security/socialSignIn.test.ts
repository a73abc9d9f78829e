/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Attacks on social sign-in, over plain HTTP against the provider simulators:
// - the OAuth round trip carried to another browser (a provider URL or a callback URL sent to a victim,
//   or replayed), which must log nobody in;
// - an ID token that does not check out (changed after signing, another nonce, client or issuer, expired,
//   an issuer of another tenant than its tid);
// - account pre-hijacking with a provider that does not vouch for the address it names (server README,
//   "Who owns an address"): such an address links to nobody's account without a code, blocks nobody's
//   sign-up, and the owner's proof takes the account over with everything the attacker made;
// - unlinking someone's provider account, and reading a project's client secret.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminErrorMessage, runAdmin } from '../../admin.ts';
import { consent, SocialBrowser, socialSignIn, WITH_PASSKEYS, WITHOUT_PASSKEYS, type Provider } from '../helpers/socialBrowser.ts';
import { SoftAuthenticator } from '../helpers/softAuthenticator.ts';
import { Client, createProject, databaseEnv, enterEmailCode, jwtPayload, PASSKEY_DEVICE, serverForThisFile, startTestServer, uniqueEmail } from '../helpers/testServer.ts';

const server = serverForThisFile();

async function me(client: Client): Promise<{ status: number; body: any }> {
  return client.request('GET', '/v2/me');
}

/** Everything the server knows of an address's accounts in pro-1: users holding it, and their links. */
async function holders(email: string): Promise<{ userId: string; status: string }[]> {
  const rows = await server.api.store.db.all<{ user_id: string; status: string }>("SELECT user_id, status FROM identifiers WHERE project_id = 'pro-1' AND normalized = ?", [email.toLowerCase()]);
  return rows.map((r) => ({ userId: r.user_id, status: r.status }));
}

async function emailUser(email: string): Promise<Client> {
  const client = new Client(server.url, 'pro-1');
  await client.init(WITHOUT_PASSKEYS, 'signup-init');
  await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Victoria' });
  const done = await enterEmailCode(client, email);
  expect(done.block).toBe('completed');
  return client;
}

describe('the OAuth state belongs to the process and the browser that started it', () => {
  it.each(['google', 'github'] as Provider[])('%s: a provider URL sent to someone else logs nobody in: not their browser, not the one that started', async (provider) => {
    const victim = uniqueEmail('victim-phished');
    await emailUser(victim);
    // the victim's browser: a fresh one, and one with a binding cookie of its own
    const withCookie = new SocialBrowser(server.url, 'pro-1');
    await withCookie.init(WITHOUT_PASSKEYS);
    await withCookie.startSocial('google');
    for (const victimBrowser of [new SocialBrowser(server.url, 'pro-1'), withCookie]) {
      // the attacker starts a sign-in and sends the provider's URL to the victim
      const attacker = new SocialBrowser(server.url, 'pro-1');
      await attacker.init(WITHOUT_PASSKEYS, 'login-init');
      const oauthUrl = (await attacker.startSocial(provider, 'login')).data.socialData.oauthUrl;
      // the victim consents with their own provider account; their browser follows the redirect
      const back = await consent(oauthUrl, { email: victim, vouched: true });
      const page = await victimBrowser.callback(back);
      expect(page.status).toBe(400);
      expect(page.headers.get('location')).toBeNull();
      expect(page.text).toContain('This sign-in was started in another browser.');
      // the attacker's tab: the round trip failed, finish has nothing to use, no session anywhere
      const resumed = await attacker.getStep('/v2/auth/process');
      expect(resumed.data.error.code).toBe('social_login_failed');
      expect((await attacker.step('/v2/auth/social/verify/finish', {})).data.error.code).toBe('unexpected_step');
      // and the callback, spent, does not work in the attacker's browser either
      expect((await attacker.callback(back)).status).toBe(400);
      expect(attacker.longSession).toBeUndefined();
      expect(victimBrowser.longSession).toBeUndefined();
    }
  });

  it('a replayed callback logs nobody in; a code used once is refused on another process', async () => {
    const client = new SocialBrowser(server.url, 'pro-1');
    await client.init(WITHOUT_PASSKEYS, 'signup-init');
    const back = await consent((await client.startSocial('google')).data.socialData.oauthUrl, { email: uniqueEmail('social-replay') });
    expect((await client.callback(back)).status).toBe(302);
    for (const browser of [client, new SocialBrowser(server.url, 'pro-1')]) {
      const replay = await browser.callback(back);
      expect(replay.status).toBe(400);
      expect(replay.text).toContain('already completed');
    }
    // the process keeps the first result, once
    expect((await client.getStep('/v2/auth/process')).data.socialData.status).toBe('finished');

    // the same code on another process's callback (in that process's browser): the provider refuses it
    const other = new SocialBrowser(server.url, 'pro-1');
    await other.init(WITHOUT_PASSKEYS, 'signup-init');
    const otherState = new URL((await other.startSocial('google')).data.socialData.oauthUrl).searchParams.get('state')!;
    const reuse = await other.callback(`${server.url}/v2/auth/social/verify/callback?code=${back.searchParams.get('code')}&state=${otherState}`);
    expect(reuse.status).toBe(302);
    expect((await other.getStep('/v2/auth/process')).data.error.code).toBe('social_login_failed');
  });
});

describe('an ID token that does not check out is refused', () => {
  const faults = ['id-token-tampered', 'id-token-nonce', 'id-token-audience', 'id-token-issuer', 'id-token-expired'];
  const cases = [...(['google', 'microsoft'] as const).flatMap((p) => faults.map((f) => [p, f] as const)), ['microsoft', 'id-token-tenant'] as const];
  it.each(cases)('%s: %s', async (provider, fault) => {
    const email = uniqueEmail(`idtoken-${fault}`);
    const client = new SocialBrowser(server.url, 'pro-1');
    await client.init(WITHOUT_PASSKEYS, 'signup-init');
    const resumed = await client.roundTrip(provider, { email, vouched: true, fault });
    expect(resumed.data.error.code).toBe('social_login_failed');
    expect((await client.step('/v2/auth/social/verify/finish', {})).data.error.code).toBe('unexpected_step');
    expect(client.longSession).toBeUndefined();
    // nobody was made, neither with the address nor with what a tampered token claims
    expect(await holders(email)).toEqual([]);
    expect(await holders('intruder@example.com')).toEqual([]);
  });
});

describe('pre-hijacking with an address the provider does not vouch for', () => {
  /** The attacker signs in with a Microsoft account that names the victim's address (no xms_edov), and puts the code off. */
  async function unvouchedAccount(victim: string, authenticator?: SoftAuthenticator): Promise<SocialBrowser> {
    const { client, finished } = await socialSignIn(server.url, 'pro-1', { email: victim, vouched: false }, { provider: 'microsoft', passkeys: !!authenticator });
    let block = finished;
    if (authenticator) {
      expect(block.block).toBe('passkey-append');
      const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
      block = await client.step('/v2/auth/passkey/append/finish', { signedChallenge: authenticator.create(started.data.challenge) });
      expect(block.block).toBe('passkey-appended');
      block = await client.step('/v2/auth/block/skip', {});
    }
    expect(block.block).toBe('post-signup-email-verify');
    expect((await client.step('/v2/auth/block/skip', {})).block).toBe('completed');
    expect(client.longSession).toEqual(expect.any(String));
    return client;
  }

  it('never links it to the account that holds the address verified, nor logs in, without a code to that address', async () => {
    const victim = uniqueEmail('victim-link');
    const owner = await emailUser(victim);
    const ownerId = (await me(owner)).body.id;
    const { client, finished } = await socialSignIn(server.url, 'pro-1', { email: victim, vouched: false }, { provider: 'microsoft' });
    expect(finished.block).toBe('email-verify');
    // every way around the code is closed
    for (const [path, body] of [
      ['/v2/auth/process/complete', {}],
      ['/v2/auth/block/skip', {}],
      ['/v2/auth/identifier/update', { identifierType: 'email', value: uniqueEmail('attacker') }],
      ['/v2/auth/social/verify/finish', {}],
      ['/v2/auth/identifier/verify/finish', { code: '123456', identifierType: 'email', verificationType: 'email-otp' }],
    ] as const) {
      const block = await client.step(path, body);
      expect(block.block, path).toBe('email-verify');
    }
    expect(client.longSession).toBeUndefined();
    expect(await server.api.store.socialAccounts.listByUser(ownerId)).toEqual([]);
  });

  it("does not keep the owner from signing up: the owner's sign-up takes the address from the attacker's account", async () => {
    const victim = uniqueEmail('victim-signup');
    const attacker = await unvouchedAccount(victim);
    const attackerId = (await me(attacker)).body.id;
    const owner = await emailUser(victim);
    expect((await me(owner)).body.id).not.toBe(attackerId);
    expect((await me(attacker)).body.identifiers).toEqual([]);
    expect(await holders(victim)).toEqual([{ userId: (await me(owner)).body.id, status: 'verified' }]);
  });

  it("the owner's log-in by code takes the account over: the attacker's sessions, provider link and passkey are gone", async () => {
    const victim = uniqueEmail('victim-takeover');
    const attackerKey = new SoftAuthenticator();
    const attacker = await unvouchedAccount(victim, attackerKey);
    const accountId = (await me(attacker)).body.id;
    // the attacker's passkey waits for a proof: no autofill log-in with it
    expect((await attacker.request('GET', '/v2/me/passkeys')).body.passkeys.map((p: any) => p.status)).toEqual(['pending']);
    const tab = new Client(server.url, 'pro-1');
    const init = await tab.init(PASSKEY_DEVICE);
    const autofill = await tab.step('/v2/auth/passkey/mediation/finish', { signedChallenge: attackerKey.get(init.body.processResponse.blockBody.data.conditionalUIChallenge) });
    expect(autofill.data.fieldError.code).toBe('conditionalUiUnconfirmedCredential');
    expect(jwtPayload((await attacker.request('POST', '/v2/me/refresh')).body.shortSession).email).toBeUndefined();

    // the owner logs in with the address: it leads to the account waiting for its address, and a code
    const login = new Client(server.url, 'pro-1');
    await login.init(WITH_PASSKEYS, 'login-init');
    expect((await login.step('/v2/auth/login/init', { identifierValue: victim, isPhone: false })).block).toBe('passkey-verify');
    expect((await login.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' })).block).toBe('email-verify');
    const proven = await enterEmailCode(login, victim);
    const completed = proven.block === 'passkey-append' ? await login.step('/v2/auth/block/skip', {}) : proven;
    expect(completed.block).toBe('completed');
    expect(jwtPayload(completed.data.shortSession)).toMatchObject({ sub: accountId, email: victim });

    expect((await attacker.request('POST', '/v2/me/refresh')).status).toBe(401);
    const taken = (await me(login)).body;
    expect(taken.socialAccounts).toEqual([]);
    expect((await login.request('GET', '/v2/me/passkeys')).body.passkeys).toEqual([]);
    // the attacker's Microsoft account leads nowhere near the account now: a code to the owner's address
    const again = await socialSignIn(server.url, 'pro-1', { email: victim, vouched: false }, { provider: 'microsoft', authType: 'login' });
    expect(again.finished.block).toBe('email-verify');
    expect(again.client.longSession).toBeUndefined();
  });

  it('an owner signing in with a provider that vouches for the address gets an account of their own, with the address', async () => {
    const victim = uniqueEmail('victim-google');
    const attacker = await unvouchedAccount(victim);
    const { client, finished } = await socialSignIn(server.url, 'pro-1', { email: victim, vouched: true }, { provider: 'google' });
    expect(finished.authType).toBe('signup');
    expect((await me(client)).body.id).not.toBe((await me(attacker)).body.id);
    expect((await me(client)).body.identifiers).toEqual([expect.objectContaining({ value: victim, status: 'verified' })]);
    expect((await me(attacker)).body.identifiers).toEqual([]);
  });
});

describe('unlinking a provider account', () => {
  it('needs the owner’s live session and a recent log-in', async () => {
    const { client } = await socialSignIn(server.url, 'pro-1', { email: uniqueEmail('unlink-stale'), vouched: true }, { provider: 'github' });
    const { id: userId, socialAccounts: [account] } = (await me(client)).body;
    server.clock.advance(301_000);
    const stale = await client.request('DELETE', '/v2/me/social-account', { socialAccountID: account.id });
    expect(stale.status).toBe(403);
    expect(stale.body.error.type).toBe('recent_login_required');
    await client.request('POST', '/v2/me/logout');
    const ended = await client.request('DELETE', '/v2/me/social-account', { socialAccountID: account.id });
    expect(ended.status).toBe(401);
    expect(await server.api.store.socialAccounts.listByUser(userId)).toHaveLength(1);
  });
});

describe("a project's client secret", () => {
  it('is stored sealed under KEY_ENCRYPTION_SECRET, never without it, and never shown', async () => {
    const secret = 'another-key-encryption-secret-32-chars!!';
    const clientSecret = 'GOCSPX-very-secret-value-1234';
    const other = await startTestServer({ api: { keyEncryptionSecret: secret, simulatorClients: { 'shop-google': clientSecret } } });
    const dir = mkdtempSync(join(tmpdir(), 'social-secret-'));
    const file = join(dir, 'project.json');
    writeFileSync(file, JSON.stringify({ allowedOrigins: ['http://localhost:5173'], environment: 'dev', socialProviders: ['google'], socialClients: { google: { clientId: 'shop-google', clientSecret } } }));
    try {
      const projectId = await createProject(other.url, { socialProviders: ['google'] });
      const env = databaseEnv(other.dir);
      await expect(runAdmin(['projects', 'update', projectId, file], env)).rejects.toThrow(/KEY_ENCRYPTION_SECRET/);
      expect(await other.api.store.oauthClients.get(projectId, 'google')).toBeUndefined();
      const shown = await runAdmin(['projects', 'update', projectId, file], { ...env, KEY_ENCRYPTION_SECRET: secret });
      expect(JSON.stringify(shown)).not.toContain(clientSecret);
      const show = await runAdmin(['projects', 'show', projectId], env);
      expect((show as any).socialClients).toEqual({ google: { clientId: 'shop-google', hasClientSecret: true } });
      expect(JSON.stringify(show)).not.toContain(clientSecret);
      const row = await other.api.store.db.get<{ client_secret: string }>('SELECT client_secret FROM project_oauth_clients WHERE project_id = ?', [projectId]);
      expect(row!.client_secret).toMatch(/^enc:v1:/);
      expect(row!.client_secret).not.toContain(clientSecret);
      // what the API says of the project, in a sign-in and after it, never carries it
      const { client, finished } = await socialSignIn(other.url, projectId, { email: uniqueEmail('sealed'), vouched: true });
      expect(finished.block).toBe('completed');
      for (const path of ['/v2/me', '/v2/session-config', '/v2/process-config']) expect(JSON.stringify((await client.request('GET', path)).body), path).not.toContain(clientSecret);
      expect(JSON.stringify((await client.request('POST', '/v2/component-config', {})).body)).not.toContain(clientSecret);
      // a wrong provider name or shape is refused, naming the field
      writeFileSync(file, JSON.stringify({ allowedOrigins: ['http://localhost:5173'], socialClients: { myspace: { clientId: 'x', clientSecret: 'y' }, google: { clientId: '' } } }));
      const refused = await runAdmin(['projects', 'update', projectId, file], { ...env, KEY_ENCRYPTION_SECRET: secret }).catch((error: unknown) => adminErrorMessage(error));
      expect(refused).toContain('socialClients.myspace');
      expect(refused).toContain('socialClients.google.clientSecret');
    } finally {
      await other.stop();
    }
  });
});

