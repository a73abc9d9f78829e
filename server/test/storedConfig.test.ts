/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// A project stored before some of its settings existed (an old dev database's /_dev/projects project)
// gets their defaults when it is read: the sign-up still verifies the e-mail address, the account
// still holds at most two addresses, the limits still apply.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../config/rateLimits.ts';
import { Client, DEMO_ORIGIN, latestCode, serverForThisFile, uniqueEmail } from './helpers/testServer.ts';

const server = serverForThisFile();

const PROJECT_ID = 'pro-4711';
const OFF = { enabled: false, required: false, collectAt: 'signup', verification: 'none', loginIdentifier: false };

/** A configuration as it was stored before maxPerUser, verifyAt, passkeyAppendAfterHybrid and limits. */
const OLD_CONFIG = {
  id: PROJECT_ID,
  appName: 'Old App',
  allowedOrigins: [DEMO_ORIGIN],
  rpId: 'localhost',
  rpName: 'Old App',
  identifiers: {
    email: { enabled: true, required: true, collectAt: 'signup', verification: 'email-otp', loginIdentifier: true },
    phone: OFF,
    username: OFF,
  },
  publicSignup: true,
  fullNameRequired: false,
  passkeys: true,
  passkeyAppend: 'after-verification',
  socialProviders: [],
  shortSessionLifetimeSeconds: 300,
  longSessionLifetimeSeconds: 30 * 86_400,
  shortSessionCookie: { domain: '', secure: false, sameSite: 'lax', path: '/' },
  environment: 'dev',
  language: 'en',
  hideBadge: false,
  emailLinkUrl: `${DEMO_ORIGIN}/?project=${PROJECT_ID}`,
  processLifetimeSeconds: 3600,
};

beforeAll(async () => {
  await server.api.store.db.run(`INSERT INTO projects (id, config, source, created_at, updated_at) VALUES (?, ?, 'dev', ?, ?)`, [
    PROJECT_ID,
    JSON.stringify(OLD_CONFIG),
    server.clock.now,
    server.clock.now,
  ]);
});

async function signUp(email: string): Promise<{ client: Client; block: any }> {
  const client = new Client(server.url, PROJECT_ID);
  await client.init({}, 'signup-init');
  return { client, block: await client.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] }) };
}

describe('a configuration stored before some settings existed', () => {
  it('reads back with the defaults of the settings it predates', async () => {
    const config = (await server.api.store.projects.get(PROJECT_ID))!;
    expect(config.identifiers.email).toEqual({ ...OLD_CONFIG.identifiers.email, maxPerUser: 2, verifyAt: 'signup' });
    expect(config.identifiers.phone).toEqual({ ...OFF, maxPerUser: 1, verifyAt: 'signup' });
    expect(config.passkeyAppendAfterHybrid).toBe(false);
    expect(config.recentLoginSeconds).toBe(300);
    expect(config.limits).toEqual(DEFAULT_RATE_LIMITS);
    expect(config).toMatchObject({ ...OLD_CONFIG, identifiers: {} });
  });

  it('signs up with the e-mail address verified by a code', async () => {
    const email = uniqueEmail('old');
    const { client, block } = await signUp(email);
    expect(block.block).toBe('email-verify');
    expect(block.data.error).toBeUndefined();
    const completed = await client.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
    });
    expect(completed.block).toBe('completed');
    expect((await client.request('GET', '/v2/me')).body.identifiers[0]).toMatchObject({ value: email, status: 'verified' });
  });

  it('lets an account hold two e-mail addresses, not three', async () => {
    const email = uniqueEmail('old-account');
    const { client } = await signUp(email);
    await client.step('/v2/auth/identifier/verify/finish', {
      code: await latestCode(server.url, email),
      identifierType: 'email',
      verificationType: 'email-otp',
    });
    const add = (value: string) => client.request('POST', '/v2/me/identifier', { identifierType: 'email', value });
    expect((await add(uniqueEmail('second'))).status).toBe(200);
    const third = await add(uniqueEmail('third'));
    expect(third.status).toBe(400);
    expect(third.body.error.type).toBe('identifier_limit_reached');
  });
});
