/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Abuse limits: each limit refuses the call after its figure with 429, Retry-After and the error
// envelope, holds across processes, client addresses (X-Forwarded-For behind a trusted proxy),
// restarts and instances sharing the database, and recovers once its window has passed.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../config/rateLimits.ts';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { Client, createProject, DEMO_ORIGIN, latestCode, outbox, PASSKEY_DEVICE, postProject, serverForThisFile, startTestServer, uniqueEmail, uniquePhone, type ApiResponse } from './helpers/testServer.ts';

const WITHOUT_PASSKEYS = { isUserVerifyingPlatformAuthenticatorAvailable: false };

// one trusted proxy: X-Forwarded-For names the client, so a test can act from several addresses
const server = serverForThisFile({ api: { trustedProxies: 1 } });

/** A browser tab at a client address. */
function tab(projectId: string, ip = '203.0.113.10', url = server.url): Client {
  const client = new Client(url, projectId);
  const request = client.request.bind(client);
  client.request = (method, path, body, headers = {}) => request(method, path, body, { 'X-Forwarded-For': ip, ...headers });
  return client;
}

/** A window is counted in tenths: an event counts until its tenth has left the window. */
const pastWindow = (windowSeconds: number) => windowSeconds * 1100 + 1000;

function expectTooMany(res: ApiResponse, windowSeconds: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ httpStatusCode: 429, message: 'Too many requests', error: { type: 'too_many_requests' } });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds * 1.1);
}

async function signUpWithEmail(projectId: string, email: string, ip?: string): Promise<ApiResponse> {
  const client = tab(projectId, ip);
  expect((await client.init(WITHOUT_PASSKEYS, 'signup-init')).status).toBe(200);
  return client.request('POST', '/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
}

describe('the defaults', () => {
  it('are the documented figures', () => {
    expect(DEFAULT_RATE_LIMITS).toEqual({
      emailSendsPerIdentifier: { max: 5, windowSeconds: 900 },
      smsSendsPerIdentifier: { max: 3, windowSeconds: 900 },
      emailSendsPerIp: { max: 20, windowSeconds: 3600 },
      smsSendsPerIp: { max: 10, windowSeconds: 3600 },
      emailSendsPerProject: { max: 1000, windowSeconds: 3600 },
      smsSendsPerProject: { max: 200, windowSeconds: 3600 },
      codeAttemptsPerIdentifier: { max: 10, windowSeconds: 900 },
      codeAttemptsPerIp: { max: 30, windowSeconds: 900 },
      processInitsPerIp: { max: 60, windowSeconds: 60 },
      loginInitsPerIp: { max: 20, windowSeconds: 60 },
      passkeyStartsPerIp: { max: 30, windowSeconds: 60 },
      backendApiRequestsPerSecret: { max: 6000, windowSeconds: 60 },
    });
  });

  it('apply to a project created without limits; a misspelt limit is refused', async () => {
    const id = await createProject(server.url, { fullNameRequired: false });
    const email = uniqueEmail('default-limit');
    // twenty processes for one address from twenty addresses: the sixth and later sends are refused
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push((await signUpWithEmail(id, email, `198.51.100.${i + 1}`)).status);
    expect(answers).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(await outbox(server.url, email)).toHaveLength(5);

    const res = await postProject(server.url, { limits: { emailSendPerIdentifier: { max: 1 } } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.validation[0]).toMatchObject({ field: 'limits.emailSendPerIdentifier' });
  });
});

describe('code and link sends', () => {
  it('per e-mail address: 5 in 15 minutes across processes and addresses, then 429 until the window passes', async () => {
    const id = await createProject(server.url, {});
    const email = uniqueEmail('send-limit');
    for (let i = 0; i < 5; i++) expect((await signUpWithEmail(id, email, `192.0.2.${i + 1}`)).status).toBe(200);
    const refused = await signUpWithEmail(id, email, '192.0.2.77');
    expectTooMany(refused, 15 * 60);
    // a resend on an existing process counts the same way
    const client = tab(id, '192.0.2.78');
    await client.init(WITHOUT_PASSKEYS, 'signup-init');
    expectTooMany(await client.request('POST', '/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] }), 15 * 60);
    // the refused call changed nothing: the process still stands on signup-init
    expect((await client.getStep('/v2/auth/process')).block).toBe('signup-init');
    // another address is not affected
    expect((await signUpWithEmail(id, uniqueEmail('other'), '192.0.2.79')).status).toBe(200);
    server.clock.advance(pastWindow(15 * 60));
    expect((await signUpWithEmail(id, email, '192.0.2.80')).status).toBe(200);
  });

  it('per phone number: 3 SMS in 15 minutes (stricter than e-mail)', async () => {
    const id = await createProject(server.url, {
      identifiers: { phone: { verification: 'phone-otp' } },
      passkeys: false,
    });
    const phone = uniquePhone();
    const send = async (ip: string) => {
      const client = tab(id, ip);
      await client.init(WITHOUT_PASSKEYS, 'signup-init');
      return client.request('POST', '/v2/auth/signup/init', { identifiers: [{ type: 'phone', identifier: phone }] });
    };
    for (let i = 0; i < 3; i++) expect((await send(`192.0.2.${10 + i}`)).status).toBe(200);
    expectTooMany(await send('192.0.2.20'), 15 * 60);
    expect(await outbox(server.url, phone)).toHaveLength(3);
  });

  it('per client address and per project, as configured', async () => {
    const id = await createProject(server.url, { limits: { emailSendsPerIp: { max: 2, windowSeconds: 600 }, emailSendsPerProject: { max: 4 } } });
    expect((await signUpWithEmail(id, uniqueEmail('ip'), '203.0.113.50')).status).toBe(200);
    expect((await signUpWithEmail(id, uniqueEmail('ip'), '203.0.113.50')).status).toBe(200);
    expectTooMany(await signUpWithEmail(id, uniqueEmail('ip'), '203.0.113.50'), 600);
    expect((await signUpWithEmail(id, uniqueEmail('ip'), '203.0.113.51')).status).toBe(200);
    expect((await signUpWithEmail(id, uniqueEmail('ip'), '203.0.113.52')).status).toBe(200);
    // the project's fifth send, from a fresh address, for a fresh identifier
    expectTooMany(await signUpWithEmail(id, uniqueEmail('ip'), '203.0.113.53'), 3600);
  });
});

describe('code attempts', () => {
  it('per identifier across processes: 10 wrong codes in 15 minutes, then even the right code waits', async () => {
    const id = await createProject(server.url, {});
    const email = uniqueEmail('attempts');
    const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const attempt = (client: Client, code: string) =>
      client.request('POST', '/v2/auth/identifier/verify/finish', { code, identifierType: 'email', verificationType: 'email-otp', isNewDevice: false });
    let last: { client: Client; code: string } | undefined;
    let wrongSoFar = 0;
    for (let p = 0; p < 3; p++) {
      const client = tab(id, `198.18.0.${p + 1}`);
      await client.init(WITHOUT_PASSKEYS, 'signup-init');
      await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
      const code = await latestCode(server.url, email);
      last = { client, code };
      // each code dies after 5 wrong attempts; the identifier's window allows 10 across processes
      for (let i = 0; i < 4 && wrongSoFar < 10; i++, wrongSoFar++) {
        const res = await attempt(client, wrong(code));
        expect(res.status).toBe(200);
        expect(res.body.blockBody.data.error.code).toBe('invalid_challenge_solution_email-otp');
      }
    }
    expect(wrongSoFar).toBe(10);
    expectTooMany(await attempt(last!.client, last!.code), 15 * 60);
    // once the window has passed (and with it the code's 10 minutes), a new code goes through
    server.clock.advance(pastWindow(15 * 60));
    await last!.client.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-otp' });
    expect((await attempt(last!.client, await latestCode(server.url, email))).body.blockBody.block).toBe('completed');
  });

  it('per client address, across identifiers', async () => {
    const id = await createProject(server.url, { limits: { codeAttemptsPerIp: { max: 3 } } });
    const onCodeScreen = async () => {
      const client = tab(id, '198.18.1.1');
      await client.init(WITHOUT_PASSKEYS, 'signup-init');
      const email = uniqueEmail('ip-attempts');
      await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
      const code = await latestCode(server.url, email);
      return (value: (code: string) => string) =>
        client.request('POST', '/v2/auth/identifier/verify/finish', { code: value(code), identifierType: 'email', verificationType: 'email-otp' });
    };
    for (let i = 0; i < 3; i++) {
      const res = await (await onCodeScreen())((code) => (code === '000000' ? '111111' : '000000'));
      expect(res.body.blockBody.data.error.code).toBe('invalid_challenge_solution_email-otp');
    }
    expectTooMany(await (await onCodeScreen())((code) => code), 15 * 60);
  });
});

describe('per client address', () => {
  it('process/init: as configured, other addresses unaffected, and the 429 is readable cross-origin', async () => {
    const id = await createProject(server.url, { limits: { processInitsPerIp: { max: 3, windowSeconds: 60 } } });
    for (let i = 0; i < 3; i++) expect((await tab(id, '192.0.2.200').init()).status).toBe(200);
    const refused = await tab(id, '192.0.2.200').init();
    expectTooMany(refused, 60);
    expect(refused.headers.get('access-control-allow-origin')).toBe(DEMO_ORIGIN);
    expect(refused.headers.get('access-control-expose-headers')).toBe('Retry-After');
    expect((await tab(id, '192.0.2.201').init()).status).toBe(200);
    server.clock.advance(pastWindow(60));
    expect((await tab(id, '192.0.2.200').init()).status).toBe(200);
  });

  it('login/init (account probing): 20 a minute by default', async () => {
    const id = await createProject(server.url, {});
    const client = tab(id, '192.0.2.210');
    await client.init(WITHOUT_PASSKEYS);
    const statuses = [];
    for (let i = 0; i < 21; i++) {
      statuses.push((await client.request('POST', '/v2/auth/login/init', { identifierValue: uniqueEmail('probe'), isPhone: false })).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('passkey starts (append and log-in)', async () => {
    const id = await createProject(server.url, { passkeyAppend: 'before-verification', limits: { passkeyStartsPerIp: { max: 2 } } });
    // an account with a passkey, made from another address
    const owner = tab(id, '192.0.2.221');
    const email = uniqueEmail('starts-owner');
    await owner.init(PASSKEY_DEVICE, 'signup-init');
    expect((await owner.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] })).block).toBe('passkey-append');
    const created = await owner.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    expect((await owner.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(created.data.challenge) })).block).toBe('email-verify');
    const verified = await owner.step('/v2/auth/identifier/verify/finish', { code: await latestCode(server.url, email), identifierType: 'email', verificationType: 'email-otp' });
    expect(verified.block).toBe('completed');

    // one append start and one log-in start from one address use up its two starts together
    const signup = tab(id, '192.0.2.220');
    await signup.init(PASSKEY_DEVICE, 'signup-init');
    expect((await signup.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: uniqueEmail('starts') }] })).block).toBe('passkey-append');
    expect((await signup.request('POST', '/v2/auth/passkey/append/start', { clientInformation: {} })).status).toBe(200);
    const login = tab(id, '192.0.2.220');
    await login.init(PASSKEY_DEVICE, 'login-init');
    expect((await login.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })).block).toBe('passkey-verify');
    const loginStart = await login.request('POST', '/v2/auth/passkey/login/start', {});
    expect(loginStart.status).toBe(200);
    expect(loginStart.body.blockBody.data.challenge).not.toBe('');
    // then both kinds are refused
    expectTooMany(await login.request('POST', '/v2/auth/passkey/login/start', {}), 60);
    expectTooMany(await signup.request('POST', '/v2/auth/passkey/append/start', { clientInformation: {} }), 60);
  });
});

describe('where limits are kept', () => {
  it('hold across a restart and across two instances on one database', async () => {
    const first = await startTestServer({ api: { trustedProxies: 1 } });
    const id = await createProject(first.url, { limits: { emailSendsPerIdentifier: { max: 3 } } });
    const email = uniqueEmail('shared');
    const second = await startTestServer({ dir: first.dir, clock: first.clock, api: { trustedProxies: 1 } });
    try {
      const send = async (url: string) => {
        const client = tab(id, '198.51.100.99', url);
        await client.init(WITHOUT_PASSKEYS, 'signup-init');
        return client.request('POST', '/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
      };
      expect((await send(first.url)).status).toBe(200);
      expect((await send(second.url)).status).toBe(200);
      expect((await send(first.url)).status).toBe(200);
      expect((await send(second.url)).status).toBe(429);
      await first.stop(true);
      const restarted = await startTestServer({ dir: first.dir, clock: first.clock, api: { trustedProxies: 1 } });
      try {
        expect((await send(restarted.url)).status).toBe(429);
      } finally {
        await restarted.stop(true);
      }
    } finally {
      await second.stop();
    }
  });
});

describe('SMS by client address and project', () => {
  it('count SMS apart from e-mails, as configured', async () => {
    const id = await createProject(server.url, {
      identifiers: { email: { required: false }, phone: { verification: 'phone-otp', required: false } },
      passkeys: false,
      limits: { smsSendsPerIp: { max: 2 }, smsSendsPerProject: { max: 3 } },
    });
    const send = async (ip: string, identifier: { type: 'phone' | 'email'; identifier: string } = { type: 'phone', identifier: uniquePhone() }) => {
      const client = tab(id, ip);
      await client.init(WITHOUT_PASSKEYS, 'signup-init');
      return client.request('POST', '/v2/auth/signup/init', { identifiers: [identifier] });
    };
    expect((await send('203.0.113.70')).status).toBe(200);
    expect((await send('203.0.113.70')).status).toBe(200);
    expectTooMany(await send('203.0.113.70'), 3600);
    // the address's e-mails are not SMS: a code by e-mail still goes out
    const email = uniqueEmail('sms-apart');
    const byEmail = await send('203.0.113.70', { type: 'email', identifier: email });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.blockBody.block).toBe('email-verify');
    expect(await outbox(server.url, email)).toHaveLength(1);
    expect((await send('203.0.113.71')).status).toBe(200);
    expectTooMany(await send('203.0.113.72'), 3600);
    // nor are the project's: its SMS are used up, its e-mails are not
    expect((await send('203.0.113.73', { type: 'email', identifier: uniqueEmail('sms-apart') })).status).toBe(200);
  });
});
