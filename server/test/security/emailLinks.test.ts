/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Attack class: the cross-device e-mail link (issue 24). The attacker types the victim's address into
// log-in or sign-up in his own browser and waits; the victim's browser merely loads the link. Loading
// it elsewhere must change nothing and spend nothing; only a click with the link's token approves the
// waiting browser, declines it, or continues on the link's own device. The browser that asked (it holds
// the process token in its storage, or the browser cookie it started with) continues by itself.
import { describe, expect, it } from 'vitest';
import { resolveProjectConfig, storedProjectConfig, type ProjectConfig } from '../../config/projectConfig.ts';
import { askForLink, type AskedLink } from '../helpers/emailLink.ts';
import { SoftAuthenticator } from '../helpers/softAuthenticator.ts';
import { Client, createProject, jwtPayload, latestLink, PASSKEY_DEVICE, postProject, serverForThisFile, uniqueEmail } from '../helpers/testServer.ts';

const server = serverForThisFile();

const LINK_LOGIN = { identifiers: { email: { verification: 'email-link' } }, passkeys: false };

/** The browser cookie process/init gave, as a Cookie header value. */
function browserCookie(res: { headers: Headers }): string {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cbo_browser='));
  if (!cookie) throw new Error('process/init set no browser cookie');
  return cookie.split(';')[0]!;
}

/** The asking browser is the attacker's, in the attacks; with the browser cookie it started with. */
interface Asked extends AskedLink {
  askerCookie: string;
}

/** A log-in or sign-up that waits for an e-mail link to `email`, asked for by a browser of its own. */
async function ask(project: string, authType: 'login' | 'signup', email: string, client: Record<string, boolean> = {}): Promise<Asked> {
  const asked = await askForLink(server.url, project, authType, email, client);
  return { ...asked, askerCookie: browserCookie(asked.init) };
}

/** A link-login project with an account for a fresh address. */
async function accountOnLinkProject(config: Record<string, unknown> = {}): Promise<{ project: string; email: string; userId: string }> {
  const project = await createProject(server.url, { ...LINK_LOGIN, ...config });
  const email = uniqueEmail('victim');
  const signup = await ask(project, 'signup', email);
  const done = await signup.asker.step('/v2/auth/email-link/open', { process: signup.process, token: signup.token });
  expect(done.block).toBe('completed');
  return { project, email, userId: jwtPayload(done.data.shortSession).sub };
}

/** A browser of its own (no process, no cookie) on the page the link opens. */
function elsewhere(project: string): Client {
  return new Client(server.url, project, 'http://localhost:5173');
}

async function poll(asker: Client): Promise<any> {
  return asker.getStep('/v2/auth/identifier/verify/status');
}

describe('an e-mail link opened in another browser than the one that asked', () => {
  it('changes nothing and spends nothing when loaded, however often; it shows what it would approve', async () => {
    const { project, email, userId } = await accountOnLinkProject();
    const attack = await ask(project, 'login', email);
    expect(attack.waiting.data.matchCode).toMatch(/^\d{3}$/);
    server.clock.advance(90_000);
    const victim = elsewhere(project);
    for (let load = 0; load < 3; load++) {
      const res = await victim.request('POST', '/v2/auth/email-link/open', { process: attack.process, token: attack.token });
      expect(res.status).toBe(200);
      expect(res.body.linkRequest).toEqual({ authType: 'login', browser: 'Chrome 131', os: 'macOS', age: 90, matchCode: attack.waiting.data.matchCode });
      // a client that knows nothing of linkRequest sees an error, never a session
      expect(res.body.blockBody.block).toBe('email-verify');
      expect(res.body.blockBody.data.error.code).toBe('email_link_other_browser');
      expect(res.body.blockBody.data).not.toHaveProperty('shortSession');
      expect(res.headers.getSetCookie().join()).not.toContain('cbo_long_session');
      const waiting = await poll(attack.asker);
      expect(waiting.block).toBe('email-verify');
      expect(waiting.data.error).toBeUndefined();
    }
    // nothing was spent: the link still approves (here by its owner, who asked himself after all)
    const approved = await victim.step('/v2/auth/email-link/approve', { process: attack.process, token: attack.token });
    expect(approved.continueOnOtherDevice).toEqual({ reason: 'email-link-verified' });
    expect(approved.data).not.toHaveProperty('shortSession');
    const completed = await poll(attack.asker);
    expect(completed.block).toBe('completed');
    expect(jwtPayload(completed.data.shortSession)).toMatchObject({ sub: userId, email, email_verified: true });
  });

  it('gives a stranger with only the process id nothing: no answer, no session, no decline', async () => {
    const { project, email } = await accountOnLinkProject();
    const attack = await ask(project, 'login', email);
    const stranger = elsewhere(project);
    for (const step of ['open', 'approve', 'decline', 'here']) {
      // (ten misses per address in 15 minutes: then even the real token waits, see the limits)
      for (const token of [step === 'here' ? attack.process : 'x'.repeat(43), attack.waiting.data.matchCode]) {
        const res = await stranger.request('POST', `/v2/auth/email-link/${step}`, { process: attack.process, token });
        expect(res.status).toBe(200);
        expect(res.body.linkRequest).toBeUndefined();
        expect(res.body.newProcess).toBeUndefined();
        expect(res.body.blockBody.continueOnOtherDevice).toBeUndefined();
        expect(res.body.blockBody.data.error.code).toBe('invalid_challenge_solution_email-link');
      }
      expect((await stranger.request('POST', `/v2/auth/email-link/${step}`, { process: attack.process })).status).toBe(400);
    }
    // the id is no process token, in either header
    for (const header of ['X-Corbado-Process-ID', 'X-Corbado-Temp-Process-ID']) {
      const res = await stranger.request('GET', '/v2/auth/identifier/verify/status', undefined, { [header]: attack.process });
      expect(res.status).toBe(404);
    }
    // the waiting process is as it was: the real token still works
    expect((await poll(attack.asker)).data.error).toBeUndefined();
    await stranger.step('/v2/auth/email-link/approve', { process: attack.process, token: attack.token });
    expect((await poll(attack.asker)).block).toBe('completed');
  });

  it('is dead for everybody once used: a replay gets nothing, and the same link cannot be used both ways', async () => {
    const { project, email } = await accountOnLinkProject();
    const first = await ask(project, 'login', email);
    const person = elsewhere(project);
    expect((await person.step('/v2/auth/email-link/approve', { process: first.process, token: first.token })).continueOnOtherDevice).toBeDefined();
    expect((await poll(first.asker)).block).toBe('completed');
    for (const step of ['open', 'approve', 'decline', 'here']) {
      const replay = await person.request('POST', `/v2/auth/email-link/${step}`, { process: first.process, token: first.token });
      expect(replay.body.blockBody.block).not.toBe('completed');
      expect(replay.body.newProcess).toBeUndefined();
      expect(replay.body.linkRequest).toBeUndefined();
    }
    // the asking tab, even, cannot spend it again
    const again = await first.asker.request('POST', '/v2/auth/email-link/open', { process: first.process, token: first.token });
    expect(again.body.blockBody.data?.shortSession).toBeFalsy();

    // approve and "log in here" at the same time: one of them, never both
    const second = await ask(project, 'login', email);
    const [approve, here] = await Promise.all([
      person.request('POST', '/v2/auth/email-link/approve', { process: second.process, token: second.token }),
      person.request('POST', '/v2/auth/email-link/here', { process: second.process, token: second.token }),
    ]);
    const approved = approve.body.blockBody.continueOnOtherDevice !== undefined;
    const movedHere = here.body.blockBody.block === 'completed';
    expect(approved !== movedHere).toBe(true);
    expect((await poll(second.asker)).block).toBe(approved ? 'completed' : 'email-verify');
  });
});

describe('the answers of the person at the link', () => {
  it('"No" ends the asking process: its tab says declined, every call of it too, and the link is dead', async () => {
    const { project, email } = await accountOnLinkProject();
    const attack = await ask(project, 'login', email);
    const victim = elsewhere(project);
    const answer = await victim.step('/v2/auth/email-link/decline', { process: attack.process, token: attack.token });
    expect(answer.data.error.code).toBe('email_link_declined');
    expect((await poll(attack.asker)).data.error.code).toBe('email_link_declined');
    // nothing goes on there: no new link, no finish with the token, no passkey
    for (const [path, body] of [
      ['/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-link' }],
      ['/v2/auth/identifier/verify/finish', { code: attack.token, identifierType: 'email', verificationType: 'email-link' }],
      ['/v2/auth/email-link/open', { process: attack.process, token: attack.token }],
    ] as const) {
      const block = await attack.asker.step(path, body);
      expect(block.block).toBe('email-verify');
      expect(block.data.error.code).toMatch(/^(email_link_declined|invalid_challenge_solution_email-link)$/);
    }
    const late = await victim.step('/v2/auth/email-link/approve', { process: attack.process, token: attack.token });
    expect(late.continueOnOtherDevice).toBeUndefined();
    expect((await poll(attack.asker)).block).toBe('email-verify');
    // starting over is the one way on
    const reset = await attack.asker.request('POST', '/v2/auth/process/reset');
    expect(reset.body.newProcess.token).toEqual(expect.any(String));
  });

  it('"Log in here instead" logs in the browser at the link, never the waiting one', async () => {
    const { project, email, userId } = await accountOnLinkProject();
    const attack = await ask(project, 'login', email);
    const victim = elsewhere(project);
    const res = await victim.request('POST', '/v2/auth/email-link/here', { process: attack.process, token: attack.token });
    expect(res.body.blockBody.block).toBe('completed');
    expect(jwtPayload(res.body.blockBody.data.shortSession)).toMatchObject({ sub: userId, email, email_verified: true });
    expect(res.body.newProcess.token).not.toBe(attack.asker.processToken);
    expect(res.headers.getSetCookie().join()).toContain('cbo_long_session=');
    const waiting = await poll(attack.asker);
    expect(waiting.block).toBe('email-verify');
    expect(waiting.data.error.code).toBe('email_link_declined');
  });

  it('"Sign up here instead" signs up at the link with the address proven, taking nothing the asker entered', async () => {
    // pro-2: the asker registers a passkey of his own before the link goes out
    const email = uniqueEmail('signup-here');
    const asker = new Client(server.url, 'pro-2');
    await asker.init(PASSKEY_DEVICE, 'signup-init');
    expect((await asker.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] })).block).toBe('passkey-append');
    const started = await asker.step('/v2/auth/passkey/append/start', { clientInformation: {} });
    expect((await asker.step('/v2/auth/passkey/append/finish', { signedChallenge: new SoftAuthenticator().create(started.data.challenge) })).block).toBe('email-verify');
    const link = await latestLink(server.url, email);
    const process = JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString()).process.id;

    const victim = elsewhere('pro-2');
    const res = await victim.request('POST', '/v2/auth/email-link/here', { process, token: link.searchParams.get('corbadoToken') });
    expect(res.body.blockBody.block).toBe('completed');
    expect(res.body.blockBody.authType).toBe('signup');
    victim.longSession = res.body.blockBody.data.longSession;
    const me = (await victim.request('GET', '/v2/me')).body;
    expect(me.identifiers).toEqual([expect.objectContaining({ value: email, status: 'verified' })]);
    expect((await victim.request('GET', '/v2/me/passkeys')).body.passkeys).toEqual([]);
    expect((await poll(asker)).data.error.code).toBe('email_link_declined');
  });

  it('"Sign up here instead" on a project that asks for more goes on at sign-up there, the address still proven', async () => {
    const project = await createProject(server.url, { ...LINK_LOGIN, fullNameRequired: true });
    const email = uniqueEmail('signup-here-name');
    const asker = new Client(server.url, project);
    await asker.init({}, 'signup-init');
    await asker.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Mallory' });
    const link = await latestLink(server.url, email);
    const process = JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString()).process.id;
    const here = elsewhere(project);
    const res = await here.request('POST', '/v2/auth/email-link/here', { process, token: link.searchParams.get('corbadoToken') });
    const init = res.body.blockBody;
    expect(init.block).toBe('signup-init');
    expect(init.data.identifiers).toEqual([{ type: 'email', identifier: email }]);
    expect(init.data.fullName).toEqual({ fullName: '' }); // the asker's name stays his
    here.processToken = res.body.newProcess.token;
    const done = await here.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }], fullName: 'Victoria' });
    expect(done.block).toBe('completed');
    expect(jwtPayload(done.data.shortSession)).toMatchObject({ email, email_verified: true, name: 'Victoria' });
  });

  it('"Yes" of a project that refuses approvals from another browser is refused; the page gets no match code', async () => {
    const { project, email } = await accountOnLinkProject({ emailLinkOtherDevice: 'refuse' });
    const attack = await ask(project, 'login', email);
    expect(attack.waiting.data.matchCode).toBeUndefined();
    const victim = elsewhere(project);
    const opened = await victim.request('POST', '/v2/auth/email-link/open', { process: attack.process, token: attack.token });
    expect(opened.body.linkRequest).toEqual({ authType: 'login', browser: 'Chrome 131', os: 'macOS', age: 0 });
    const approve = await victim.request('POST', '/v2/auth/email-link/approve', { process: attack.process, token: attack.token });
    expect(approve.status).toBe(403);
    expect(approve.body.error.type).toBe('email_link_approval_refused');
    expect((await poll(attack.asker)).block).toBe('email-verify');
    expect((await victim.step('/v2/auth/email-link/here', { process: attack.process, token: attack.token })).block).toBe('completed');
  });
});

describe('the browser that asked', () => {
  it('continues by itself where the link page holds the process', async () => {
    const { project, email, userId } = await accountOnLinkProject();
    const mine = await ask(project, 'login', email);
    const completed = await mine.asker.step('/v2/auth/email-link/open', { process: mine.process, token: mine.token });
    expect(completed.block).toBe('completed');
    expect(jwtPayload(completed.data.shortSession).sub).toBe(userId);
  });

  it('continues by itself by its browser cookie: the tab that asked moves on (web-js 3 sends no process token)', async () => {
    const { project, email } = await accountOnLinkProject();
    for (const route of ['email-link/open', 'identifier/verify/finish'] as const) {
      const mine = await ask(project, 'login', email);
      const linkTab = elsewhere(project);
      const opened =
        route === 'email-link/open'
          ? await linkTab.request('POST', `/v2/auth/${route}`, { process: mine.process, token: mine.token }, { Cookie: mine.askerCookie })
          : await linkTab.request(
              'POST',
              `/v2/auth/${route}`,
              { code: mine.token, identifierType: 'email', verificationType: 'email-link' },
              { 'X-Corbado-Temp-Process-ID': mine.process, Cookie: mine.askerCookie },
            );
      expect(opened.body.blockBody.continueOnOtherDevice).toEqual({ reason: 'email-link-verified' });
      expect((await poll(mine.asker)).block).toBe('completed');
    }
  });

  it('web-js 3 elsewhere (its temp header, another cookie or none) logs nobody in and spends nothing', async () => {
    const { project, email } = await accountOnLinkProject();
    const attack = await ask(project, 'login', email);
    const someoneElse = await ask(project, 'signup', uniqueEmail('cookie-owner'));
    for (const cookie of [undefined, someoneElse.askerCookie, 'cbo_browser=forged']) {
      const res = await elsewhere(project).request(
        'POST',
        '/v2/auth/identifier/verify/finish',
        { code: attack.token, identifierType: 'email', verificationType: 'email-link' },
        { 'X-Corbado-Temp-Process-ID': attack.process, ...(cookie ? { Cookie: cookie } : {}) },
      );
      expect(res.status).toBe(200);
      expect(res.body.blockBody.data.error.code).toBe('email_link_other_browser');
      expect(res.body.blockBody.continueOnOtherDevice).toBeUndefined();
      expect((await poll(attack.asker)).block).toBe('email-verify');
    }
  });
});

describe('the tab waiting for the link', () => {
  it('is told when the link has expired unused, and gets a new one on resend', async () => {
    const { project, email } = await accountOnLinkProject();
    const mine = await ask(project, 'login', email);
    server.clock.advance(10 * 60_000 - 1);
    expect((await poll(mine.asker)).data.error).toBeUndefined();
    server.clock.advance(1);
    expect((await poll(mine.asker)).data.error.code).toBe('invalid_challenge_solution_email-link');
    const resent = await mine.asker.step('/v2/auth/identifier/verify/start', { identifierType: 'email', verificationType: 'email-link' });
    expect(resent.data.error).toBeUndefined();
    expect((await poll(mine.asker)).data.error).toBeUndefined();
  });
});

describe('the project setting emailLinkOtherDevice', () => {
  it('is confirm by default (also for a configuration stored before it existed), refuse on request, nothing else', async () => {
    const resolved = resolveProjectConfig('pro-1', {}, 'http://x.test');
    expect(resolved.emailLinkOtherDevice).toBe('confirm');
    const { emailLinkOtherDevice: _, ...old } = resolved;
    expect(storedProjectConfig(old as ProjectConfig).emailLinkOtherDevice).toBe('confirm');
    expect(resolveProjectConfig('pro-1', { emailLinkOtherDevice: 'refuse' }, 'http://x.test').emailLinkOtherDevice).toBe('refuse');
    const res = await postProject(server.url, { emailLinkOtherDevice: 'allow' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.validation).toEqual([{ field: 'emailLinkOtherDevice', message: expect.stringContaining('confirm') }]);
  });
});
