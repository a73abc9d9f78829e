/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// A user the host disabled (Backend API) gets no session by any way in that does not ask for the
// identifier first: a passkey offered by autofill (mediation/finish), a passkey login whose process was
// already under way when the host disabled the user (login/finish), and a provider account linked to
// the user. Each way reaches the one guard in Sessions.start; these tests go red without it.
import { describe, expect, it } from 'vitest';
import { backendCall, newSecret } from '../helpers/backendApiClient.ts';
import { userWithPasskey } from '../helpers/passkeyUser.ts';
import { SocialBrowser, socialSignIn, WITHOUT_PASSKEYS } from '../helpers/socialBrowser.ts';
import { SoftAuthenticator } from '../helpers/softAuthenticator.ts';
import { Client, jwtPayload, PASSKEY_DEVICE, serverForThisFile, uniqueEmail, type ApiResponse } from '../helpers/testServer.ts';

const server = serverForThisFile({ api: { backendApiPort: 0 } });

async function setStatus(userId: string, status: 'active' | 'disabled'): Promise<void> {
  const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
  expect((await backendCall(server, creds, 'PATCH', `/v2/users/${userId}`, { status })).body.status).toBe(status);
}

/** The user's live sessions, as the Backend API lists them. */
async function activeSessions(userId: string): Promise<number> {
  const creds = { projectId: 'pro-1', secret: await newSecret(server, 'pro-1') };
  const listed = await backendCall(server, creds, 'GET', `/v2/users/${userId}/longSessions`);
  return listed.body.longSessions.filter((s: any) => s.status === 'active').length;
}

/** The answer hands out no session: 403 user_disabled, no session in the body, no cookie. */
function expectNoSession(res: ApiResponse): void {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body.error.type).toBe('user_disabled');
  expect(JSON.stringify(res.body)).not.toMatch(/shortSession|longSession/);
  expect(res.headers.getSetCookie().join()).not.toContain('cbo_long_session');
}

describe('a disabled user gets no session', () => {
  it('by a passkey offered by autofill (mediation/finish); enabled again, the same passkey logs in', async () => {
    const authenticator = new SoftAuthenticator();
    const { client: signedUp } = await userWithPasskey(server.url, authenticator);
    const userId = jwtPayload((await signedUp.request('POST', '/v2/me/refresh')).body.shortSession).sub as string;
    await setStatus(userId, 'disabled');
    expect(await activeSessions(userId)).toBe(0);

    const client = new Client(server.url, 'pro-1');
    const init = await client.init(PASSKEY_DEVICE);
    const challenge = init.body.processResponse.blockBody.data.conditionalUIChallenge;
    expectNoSession(await client.request('POST', '/v2/auth/passkey/mediation/finish', { signedChallenge: authenticator.get(challenge) }));
    expect(await activeSessions(userId)).toBe(0);

    await setStatus(userId, 'active');
    const again = new Client(server.url, 'pro-1');
    const fresh = (await again.init(PASSKEY_DEVICE)).body.processResponse.blockBody.data.conditionalUIChallenge;
    expect((await again.step('/v2/auth/passkey/mediation/finish', { signedChallenge: authenticator.get(fresh) })).block).toBe('completed');
  });

  it('by a passkey login that was under way when the host disabled the user (login/finish)', async () => {
    const authenticator = new SoftAuthenticator();
    const { email, client: signedUp } = await userWithPasskey(server.url, authenticator);
    const userId = jwtPayload((await signedUp.request('POST', '/v2/me/refresh')).body.shortSession).sub as string;
    const client = new Client(server.url, 'pro-1');
    await client.init(PASSKEY_DEVICE);
    expect((await client.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })).block).toBe('passkey-verify');
    const started = await client.step('/v2/auth/passkey/login/start', {});
    await setStatus(userId, 'disabled');
    expectNoSession(await client.request('POST', '/v2/auth/passkey/login/finish', { signedChallenge: authenticator.get(started.data.challenge) }));
    expect(await activeSessions(userId)).toBe(0);
  });

  it('by a linked provider account', async () => {
    const email = uniqueEmail('social');
    const answer = { email, name: 'Sam Social', vouched: true };
    const { finished } = await socialSignIn(server.url, 'pro-1', answer);
    expect(finished.block).toBe('completed');
    const userId = jwtPayload(finished.data.shortSession).sub as string;
    await setStatus(userId, 'disabled');

    const browser = new SocialBrowser(server.url, 'pro-1');
    await browser.init(WITHOUT_PASSKEYS, 'login-init');
    const resumed = await browser.roundTrip('google', answer, 'login');
    expect(resumed.data.socialData.status).toBe('finished');
    expectNoSession(await browser.request('POST', '/v2/auth/social/verify/finish', {}));
    expect(await activeSessions(userId)).toBe(0);
  });
});
