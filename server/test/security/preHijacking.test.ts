/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Attack class: account pre-hijacking (issue 13, attack 2; Sudhodanan and Paverd, 2022). On a project
// that verifies the e-mail address after sign-up (pro-8), the attacker signs up with the victim's
// address, registers a passkey of his own and chooses "Verify later". When the victim proves the
// address, the attacker's long session, passkey and everything else made before the proof must stop
// working; the victim's own passkey, presented in the same process as the proof, is kept.
import { describe, expect, it } from 'vitest';
import { consent, SocialBrowser } from '../helpers/socialBrowser.ts';
import { SoftAuthenticator } from '../helpers/softAuthenticator.ts';
import { Client, createProject, jwtPayload, latestCode, PASSKEY_DEVICE, serverForThisFile, uniqueEmail } from '../helpers/testServer.ts';

const server = serverForThisFile();

/** A pro-8 sign-up with a passkey on `authenticator` and "Verify later"; the client holds the long session. */
async function signUpUnverified(email: string, authenticator: SoftAuthenticator): Promise<Client> {
  const client = new Client(server.url, 'pro-8');
  await client.init(PASSKEY_DEVICE, 'signup-init');
  expect((await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Mallory' })).block).toBe('passkey-append');
  const started = await client.step('/v2/auth/passkey/append/start', { clientInformation: {} });
  await client.step('/v2/auth/passkey/append/finish', { signedChallenge: authenticator.create(started.data.challenge) });
  expect((await client.step('/v2/auth/block/skip')).block).toBe('post-signup-email-verify');
  expect((await client.step('/v2/auth/process/complete')).block).toBe('completed');
  expect(client.longSession).toEqual(expect.any(String));
  return client;
}

function proveEmail(client: Client, email: string): Promise<any> {
  return latestCode(server.url, email).then((code) =>
    client.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp' }),
  );
}

/** A conditional-UI (autofill) log-in with the passkey on `authenticator`, on a fresh process. */
async function autofill(authenticator: SoftAuthenticator): Promise<{ client: Client; block: any }> {
  const client = new Client(server.url, 'pro-8');
  const init = await client.init(PASSKEY_DEVICE);
  const challenge = init.body.processResponse.blockBody.data.conditionalUIChallenge;
  return { client, block: await client.step('/v2/auth/passkey/mediation/finish', { signedChallenge: authenticator.get(challenge) }) };
}

/** A social sign-in with GitHub on `projectId` as the provider's user `email`, up to the finish call's answer. */
async function gitHubSignIn(projectId: string, email: string, clientInformation: object): Promise<{ client: Client; finished: any }> {
  const client = new SocialBrowser(server.url, projectId);
  await client.init(clientInformation, 'login-init');
  const started = await client.startSocial('github', 'login');
  expect((await client.callback(await consent(started.data.socialData.oauthUrl, { email, name: 'Mallory' }))).status).toBe(302);
  return { client, finished: await client.step('/v2/auth/social/verify/finish', {}) };
}

describe('pre-hijacking an account on a project that verifies the address after sign-up', () => {
  it("takes everything the attacker made away when the victim logs in by e-mail code", async () => {
    const victim = uniqueEmail('victim');
    const attackerKey = new SoftAuthenticator();
    const attacker = await signUpUnverified(victim, attackerKey);
    const accountId = (await attacker.request('GET', '/v2/me')).body.id;
    expect((await attacker.request('POST', '/v2/me/refresh')).status).toBe(200);

    // the victim cannot know; "log in" finds the account waiting for its address to be proven
    const login = new Client(server.url, 'pro-8');
    await login.init(PASSKEY_DEVICE, 'login-init');
    expect((await login.step('/v2/auth/login/init', { identifierValue: victim, isPhone: false })).block).toBe('passkey-verify');
    expect((await login.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' })).block).toBe('email-verify');
    const completed = await proveEmail(login, victim);
    expect(completed.block).toBe('completed');
    expect(jwtPayload(completed.data.shortSession).sub).toBe(accountId);

    // the attacker's long session, issued before the proof, is revoked
    const refresh = await attacker.request('POST', '/v2/me/refresh');
    expect(refresh.status).toBe(401);
    expect((await attacker.request('GET', '/v2/me')).status).toBe(401);
    // the attacker's passkey is gone: neither the autofill nor passkey-verify lets it in
    const { block: autofilled, client: tab } = await autofill(attackerKey);
    expect(autofilled.block).toBe('login-init');
    expect(autofilled.data.fieldError.code).toBe('invalid_conditional_ui_login');
    expect(tab.longSession).toBeUndefined();
    const byName = new Client(server.url, 'pro-8');
    await byName.init(PASSKEY_DEVICE, 'login-init');
    expect((await byName.step('/v2/auth/login/init', { identifierValue: victim, isPhone: false })).block).toBe('email-verify');

    // the victim's session, issued by the proof, works; the account is the victim's alone
    expect((await login.request('POST', '/v2/me/refresh')).status).toBe(200);
    expect((await login.request('GET', '/v2/me/passkeys')).body.passkeys).toEqual([]);
    expect((await login.request('GET', '/v2/me')).body.identifiers).toEqual([expect.objectContaining({ value: victim, status: 'verified' })]);
  });

  it("removes the provider account the attacker linked before the proof: his GitHub log-in no longer reaches the victim's account", async () => {
    const projectId = await createProject(server.url, {
      appName: 'Verify later, GitHub',
      identifiers: { email: { verification: 'email-otp', verifyAt: 'after-signup' } },
      socialProviders: ['github'],
    });
    // the attacker signs up with GitHub (his own, proven address), then changes the address to the
    // victim's on the passkey screen and chooses "Verify later": the account holds the victim's address
    // pending and is linked to the attacker's GitHub account
    const victim = uniqueEmail('victim');
    const attackerGitHub = uniqueEmail('mallory-github');
    const { client: attacker, finished } = await gitHubSignIn(projectId, attackerGitHub, PASSKEY_DEVICE);
    expect(finished.block).toBe('passkey-append');
    expect((await attacker.step('/v2/auth/identifier/update', { identifierType: 'email', value: victim })).block).toBe('passkey-append');
    expect((await attacker.step('/v2/auth/block/skip')).block).toBe('post-signup-email-verify');
    expect((await attacker.step('/v2/auth/process/complete')).block).toBe('completed');
    const account = (await attacker.request('GET', '/v2/me')).body;
    expect(account.identifiers).toEqual([expect.objectContaining({ value: victim, status: 'pending' })]);
    expect(account.socialAccounts).toEqual([expect.objectContaining({ providerType: 'github', identifierValue: attackerGitHub })]);
    // before the proof, the attacker's GitHub log-in leads into that account
    const before = await gitHubSignIn(projectId, attackerGitHub, {});
    expect(jwtPayload(before.finished.data.shortSession)).toMatchObject({ sub: account.id });

    // the victim logs in by e-mail code and so proves the address
    const login = new Client(server.url, projectId);
    await login.init({}, 'login-init');
    expect((await login.step('/v2/auth/login/init', { identifierValue: victim, isPhone: false })).block).toBe('email-verify');
    const completed = await proveEmail(login, victim);
    expect(jwtPayload(completed.data.shortSession).sub).toBe(account.id);
    expect((await login.request('GET', '/v2/me')).body.socialAccounts).toEqual([]);

    // the attacker's GitHub account now leads into an account of its own, never the victim's
    const after = await gitHubSignIn(projectId, attackerGitHub, {});
    expect(after.finished.block).toBe('completed');
    expect(after.finished.authType).toBe('signup');
    expect(jwtPayload(after.finished.data.shortSession).sub).not.toBe(account.id);
    expect((await login.request('GET', '/v2/me')).body.socialAccounts).toEqual([]);
  });

  it("lets the victim sign up; the attacker's account loses the address and the victim's log-in reaches the victim's account", async () => {
    const victim = uniqueEmail('victim');
    const attacker = await signUpUnverified(victim, new SoftAuthenticator());
    const attackerId = (await attacker.request('GET', '/v2/me')).body.id;

    const signup = new Client(server.url, 'pro-8');
    await signup.init({}, 'signup-init');
    const init = await signup.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: victim }], fullName: 'Victoria' });
    expect(init.block).toBe('post-signup-email-verify');
    const completed = await proveEmail(signup, victim);
    expect(completed.block).toBe('completed');
    const victimId = jwtPayload(completed.data.shortSession).sub;
    expect(victimId).not.toBe(attackerId);
    expect((await attacker.request('GET', '/v2/me')).body.identifiers).toEqual([]);

    const login = new Client(server.url, 'pro-8');
    await login.init({}, 'login-init');
    expect((await login.step('/v2/auth/login/init', { identifierValue: victim, isPhone: false })).block).toBe('email-verify');
    expect(jwtPayload((await proveEmail(login, victim)).data.shortSession)).toMatchObject({ sub: victimId, name: 'Victoria' });
  });

  it('reaches the oldest of several unverified accounts holding the address; the proof takes it from the others', async () => {
    const victim = uniqueEmail('victim');
    const oldest = await signUpUnverified(victim, new SoftAuthenticator());
    server.clock.advance(1000);
    const younger = await signUpUnverified(victim, new SoftAuthenticator());
    const oldestId = (await oldest.request('GET', '/v2/me')).body.id;

    const login = new Client(server.url, 'pro-8');
    await login.init({}, 'login-init');
    expect((await login.step('/v2/auth/login/init', { identifierValue: victim, isPhone: false })).block).toBe('passkey-verify');
    await login.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
    expect(jwtPayload((await proveEmail(login, victim)).data.shortSession).sub).toBe(oldestId);
    expect((await oldest.request('POST', '/v2/me/refresh')).status).toBe(401);
    // the younger account was not logged into: it only loses the address
    expect((await younger.request('GET', '/v2/me')).body.identifiers).toEqual([]);
  });

  it('keeps the passkey of someone who presents it and proves the address in one process', async () => {
    const email = uniqueEmail('both');
    const own = new SoftAuthenticator();
    const earlier = await signUpUnverified(email, own);

    // the autofill refuses the unconfirmed passkey; the same process then logs in by name and code
    const { client, block } = await autofill(own);
    expect(block.data.fieldError.code).toBe('conditionalUiUnconfirmedCredential');
    expect((await client.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })).block).toBe('passkey-verify');
    expect((await client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' })).block).toBe('email-verify');
    expect((await proveEmail(client, email)).block).toBe('completed');

    expect((await client.request('GET', '/v2/me/passkeys')).body.passkeys.map((p: any) => p.status)).toEqual(['active']);
    expect((await autofill(own)).block.block).toBe('completed');
    // sessions issued before the proof are revoked all the same: nobody could tell whose they were
    expect((await earlier.request('POST', '/v2/me/refresh')).status).toBe(401);
  });
});
