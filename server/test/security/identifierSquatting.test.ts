/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Attack class: squatting an address (issue 13, attack 1). A signed-up user adds somebody else's e-mail
// address on the account page (POST /v2/me/identifier), where it stays pending without any code. A
// pending address proves nothing: it must neither keep the owner from signing up nor lead the owner's
// log-in into the squatter's account, and the owner's proof takes it away from the squatter.
import { describe, expect, it } from 'vitest';
import { Client, jwtPayload, latestCode, outbox, serverForThisFile, uniqueEmail } from '../helpers/testServer.ts';

const server = serverForThisFile();

/** A pro-1 user signed up by e-mail code; the client holds the long session. */
async function signUp(email: string, fullName: string, projectId = 'pro-1'): Promise<Client> {
  const client = new Client(server.url, projectId);
  await client.init({}, 'signup-init');
  expect((await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName })).block).toBe('email-verify');
  const completed = await client.step('/v2/auth/identifier/verify/finish', {
    code: await latestCode(server.url, email),
    identifierType: 'email',
    verificationType: 'email-otp',
  });
  expect(completed.block).toBe('completed');
  return client;
}

async function me(client: Client): Promise<any> {
  const res = await client.request('GET', '/v2/me');
  expect(res.status).toBe(200);
  return res.body;
}

/** The squatter's account, holding `victim` pending beside its own verified address. */
async function squat(victim: string): Promise<Client> {
  const squatter = await signUp(uniqueEmail('squatter'), 'Mallory Squatter');
  const added = await squatter.request('POST', '/v2/me/identifier', { identifierType: 'email', value: victim });
  expect(added.status).toBe(200);
  expect((await me(squatter)).identifiers.find((i: any) => i.value === victim)?.status).toBe('pending');
  return squatter;
}

describe('squatting an address with POST /v2/me/identifier', () => {
  it("does not lead the owner's log-in into the squatter's account", async () => {
    const victim = uniqueEmail('owner');
    await squat(victim);
    const owner = new Client(server.url, 'pro-1');
    await owner.init({}, 'login-init');
    const found = await owner.step('/v2/auth/login/init', { identifierValue: victim, isPhone: false });
    expect(found.block).toBe('login-init');
    expect(found.data.fieldError.code).toBe('login_identifier_unknown_user');
    expect(await outbox(server.url, victim)).toEqual([]);
  });

  it("does not keep the owner from signing up; the owner's proof takes the address from the squatter", async () => {
    const victim = uniqueEmail('owner');
    const squatter = await squat(victim);
    const squatterId = (await me(squatter)).id;

    const owner = await signUp(victim, 'Olivia Owner');
    const ownerAccount = await me(owner);
    expect(ownerAccount.id).not.toBe(squatterId);
    expect(ownerAccount.identifiers).toEqual([expect.objectContaining({ value: victim, status: 'verified' })]);

    // the squatter keeps its own account and address, without the owner's
    const left = await me(squatter);
    expect(left.identifiers.map((i: any) => i.value)).not.toContain(victim);
    expect(left.identifiers).toHaveLength(1);
    expect(left.identifiers[0]).toMatchObject({ status: 'verified', primary: true });
    // and cannot add it again: it is owned now
    const again = await squatter.request('POST', '/v2/me/identifier', { identifierType: 'email', value: victim.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.error.type).toBe('identifier_already_in_use');

    // the owner's log-in reaches the owner's account
    const login = new Client(server.url, 'pro-1');
    await login.init({}, 'login-init');
    expect((await login.step('/v2/auth/login/init', { identifierValue: victim, isPhone: false })).block).toBe('email-verify');
    const completed = await login.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, victim),
      identifierType: 'email',
      verificationType: 'email-otp',
    });
    expect(jwtPayload(completed.data.shortSession)).toMatchObject({ sub: ownerAccount.id, name: 'Olivia Owner' });
  });

  it("takes the address from the squatter when the owner proves it on the owner's account page", async () => {
    const victim = uniqueEmail('owner');
    const squatter = await squat(victim);
    const owner = await signUp(uniqueEmail('owner-first'), 'Olivia Owner');
    expect((await owner.request('POST', '/v2/me/identifier', { identifierType: 'email', value: victim })).status).toBe(200);
    const id = (await me(owner)).identifiers.find((i: any) => i.value === victim).id;
    expect((await owner.request('POST', '/v2/me/identifier/verify/start', { identifierID: id })).status).toBe(200);
    const proven = await owner.request('POST', '/v2/me/identifier/verify/finish', { identifierID: id, code: await latestCode(server.url, victim) });
    expect(proven.status).toBe(200);
    expect((await me(owner)).identifiers.find((i: any) => i.value === victim).status).toBe('verified');
    expect((await me(squatter)).identifiers.map((i: any) => i.value)).not.toContain(victim);
  });

  it('refuses a second proof of an address another account has claimed meanwhile', async () => {
    // two pro-8 sign-ups of one address, both waiting for the code after the account was created
    const email = uniqueEmail('twice');
    const started = async () => {
      const client = new Client(server.url, 'pro-8');
      await client.init({}, 'signup-init');
      expect((await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] })).block).toBe('post-signup-email-verify');
      return { client, code: await latestCode(server.url, email) };
    };
    const late = await started();
    const first = await started();
    const finish = (client: Client, code: string) =>
      client.step('/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp' });
    expect((await finish(first.client, first.code)).block).toBe('completed');
    const refused = await finish(late.client, late.code);
    expect(refused.block).toBe('post-signup-email-verify');
    expect(refused.error.code).toBe('identifier_already_in_use');
  });
});
