/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Attack class: hostile input (issue 13, attack 4). An address with a NUL byte passed the format check
// and a mail library dropped the NUL, so the code went to another address than the one checked; names
// took NUL, right-to-left overrides and zero-width characters. Plain HTTP calls as an attacker makes
// them; each refusal is the field error the widget translates, and nothing of it is stored or mailed.
import { beforeAll, describe, expect, it } from 'vitest';
import { Client, createProject, latestCode, outbox, serverForThisFile, uniqueEmail } from '../helpers/testServer.ts';

const server = serverForThisFile();
const NO_PASSKEYS = { isUserVerifyingPlatformAuthenticatorAvailable: false, isConditionalMediationAvailable: false };

const NUL_ADDRESS = 'x@example.com\u0000.evil.com';
const RLO = '\u202E'; // right-to-left override: "Ada<RLO>ecalevoL" reads "Ada Lovelace" backwards
const ZWSP = '\u200B';

let projectId: string;
beforeAll(async () => {
  projectId = await createProject(server.url, { identifiers: { email: {} }, fullNameRequired: true, passkeys: false });
});

async function signupInit(identifier: string, fullName: string): Promise<{ client: Client; block: any }> {
  const client = new Client(server.url, projectId);
  await client.init(NO_PASSKEYS, 'signup-init');
  const block = await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier }], fullName });
  return { client, block };
}

/** A signed-up, logged-in account: its client carries the long session. */
async function account(email = uniqueEmail('owner'), fullName = 'Ada Lovelace'): Promise<Client> {
  const { client, block } = await signupInit(email, fullName);
  expect(block.block).toBe('email-verify');
  const done = await client.step('/v2/auth/identifier/verify/finish', {
    code: await latestCode(server.url, email),
    identifierType: 'email',
    verificationType: 'email-otp',
    isNewDevice: false,
  });
  expect(done.block).toBe('completed');
  return client;
}

async function me(client: Client): Promise<any> {
  const res = await client.request('GET', '/v2/me');
  expect(res.status).toBe(200);
  return res.body;
}

function expectEnvelope(res: { status: number; body: any }, status: number, type: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ httpStatusCode: status, error: { type } });
}

/** Every message the server sent, wherever to: none may go to an address that was refused. */
async function allRecipients(): Promise<string[]> {
  return (await outbox(server.url)).map((m) => m.to);
}

describe('identifiers: one rule on every path', () => {
  it('refuses an address with a NUL byte at sign-up: field error, no code mailed anywhere', async () => {
    const { block } = await signupInit(NUL_ADDRESS, 'Mallory');
    expect(block.block).toBe('signup-init');
    expect(block.data.identifiers[0].error.code).toBe('identifier_invalid_format');
    const recipients = await allRecipients();
    expect(recipients.filter((to) => to.includes('evil') || to.includes('\u0000'))).toEqual([]);
  });

  it('refuses bidi controls and zero-width characters in an address', async () => {
    for (const address of [`ev${RLO}il@example.com`, `ad${ZWSP}a@example.com`, `ada@exa${ZWSP}mple.com`, 'ada@example.com\u2066']) {
      const { block } = await signupInit(address, 'Mallory');
      expect(block.data.identifiers[0].error?.code, JSON.stringify(address)).toBe('identifier_invalid_format');
    }
  });

  it('refuses a domain IDNA cannot convert', async () => {
    for (const address of ['ada@xn--zz.example', 'ada@exa%mple.com']) {
      const { block } = await signupInit(address, 'Ada');
      expect(block.data.identifiers[0].error?.code, address).toBe('identifier_invalid_format');
    }
  });

  it('stores an upper-case IDN domain in lower case and the address NFC-normalised, and mails that address', async () => {
    const local = `zoe\u0308.${Date.now().toString(36)}`; // "zoë" typed with a combining diaeresis
    const typed = `${local}@BÜCHER.Example`;
    const stored = `${local.normalize('NFC')}@bücher.example`;
    const { client, block } = await signupInit(typed, 'Zoe\u0308 Mu\u0308ller');
    expect(block.block).toBe('email-verify');
    expect(block.data.identifier).toBe(stored);
    expect((await outbox(server.url, stored))[0]?.to).toBe(stored);
    const done = await client.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, stored),
      identifierType: 'email',
      verificationType: 'email-otp',
      isNewDevice: false,
    });
    expect(done.block).toBe('completed');
    const profile = await me(client);
    expect(profile.fullName).toBe('Zoë Müller');
    expect(profile.identifiers.map((i: any) => i.value)).toEqual([stored]);

    // the same address in its punycode spelling is the same account
    const again = await signupInit(`${local}@xn--bcher-kva.example`, 'Zoë');
    expect(again.block.data.identifiers[0].error?.code).toBe('identifier_already_in_use');
  });

  it('answers a log-in with a NUL address as an unknown user, never a 500', async () => {
    const client = new Client(server.url, projectId);
    await client.init(NO_PASSKEYS, 'login-init');
    const res = await client.request('POST', '/v2/auth/login/init', { identifierValue: NUL_ADDRESS, isPhone: false });
    expect(res.status).toBe(200);
    expect(res.body.blockBody.data.fieldError.code).toBe('login_identifier_unknown_user');
  });

  it('refuses a hostile address when the identifier is changed on the verify screen', async () => {
    const email = uniqueEmail('edit');
    const { client, block } = await signupInit(email, 'Ada');
    expect(block.block).toBe('email-verify');
    const before = (await outbox(server.url)).length;
    const res = await client.request('POST', '/v2/auth/identifier/update', { identifierType: 'email', value: NUL_ADDRESS });
    expect(res.status).toBe(200);
    expect(res.body.blockBody.error.code).toBe('identifier_invalid_format');
    expect(res.body.blockBody.data.identifier).toBe(email);
    expect((await outbox(server.url)).length).toBe(before);
  });

  it('refuses hostile addresses on the account page and stores none of them', async () => {
    const client = await account();
    const before = await me(client);
    for (const value of [NUL_ADDRESS, `ev${RLO}il@example.com`, `a${ZWSP}b@example.com`, 'ada@xn--zz.example']) {
      const res = await client.request('POST', '/v2/me/identifier', { identifierType: 'email', value });
      expectEnvelope(res, 400, 'identifier_invalid_format');
    }
    expect(before.identifiers).toHaveLength(1);
    expect((await me(client)).identifiers).toEqual(before.identifiers);
  });

  it('answers a NUL in an id with a 4xx envelope on every database, never a 500', async () => {
    const client = await account();
    const res = await client.request('DELETE', '/v2/me/identifier', { identifierID: 'ide-\u0000' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.error.type).toEqual(expect.any(String));
  });
});

describe('names: trimmed, the same refusals and length cap on every path', () => {
  it('refuses NUL, right-to-left overrides and zero-width characters at sign-up, keeping what was typed', async () => {
    for (const name of ['Ada\u0000Lovelace', `Ada ${RLO}ecalevoL`, `Ada${ZWSP}Lovelace`, 'Ada\u0085Lovelace']) {
      const email = uniqueEmail('named');
      const { block } = await signupInit(email, name);
      expect(block.block, JSON.stringify(name)).toBe('signup-init');
      expect(block.data.fullName).toEqual({ fullName: name, error: { code: 'invalid_full_name', message: expect.any(String) } });
      expect(await outbox(server.url, email)).toEqual([]);
    }
  });

  it('trims and NFC-normalises an accepted name at sign-up', async () => {
    const client = await account(uniqueEmail('nfc'), '  Rene\u0301 Descartes  ');
    expect((await me(client)).fullName).toBe('René Descartes');
  });

  it('refuses the same characters and length on PATCH /v2/me and keeps the stored name', async () => {
    const client = await account(uniqueEmail('rename'), 'Ada Lovelace');
    for (const fullName of ['Ada\u0000', `${RLO}ecalevoL adA`, `Ada${ZWSP}`]) {
      expectEnvelope(await client.request('PATCH', '/v2/me', { fullName }), 400, 'invalid_full_name');
    }
    expectEnvelope(await client.request('PATCH', '/v2/me', { fullName: 'x'.repeat(101) }), 400, 'missing_full_name');
    expect((await me(client)).fullName).toBe('Ada Lovelace');
    expect((await client.request('PATCH', '/v2/me', { fullName: ' Rene\u0301 ' })).status).toBe(200);
    expect((await me(client)).fullName).toBe('René');
  });

  it('refuses a hostile name where the project asks for none, instead of storing it', async () => {
    const quiet = await createProject(server.url, { identifiers: { email: {} }, passkeys: false });
    const client = new Client(server.url, quiet);
    await client.init(NO_PASSKEYS, 'signup-init');
    const res = await client.request('POST', '/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail() }], fullName: `x${RLO}` });
    expectEnvelope(res, 400, 'invalid_request');
    expect(res.body.error.validation[0].field).toBe('fullName');
  });
});
