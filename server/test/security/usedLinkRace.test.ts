// An e-mail link is spent once, also when it is used at the same moment on two instances of the API
// (scale-out) on one PostgreSQL database. Two guards hold: every call on a link's process holds the
// process row locked (FlowEngine), and the spend itself is one UPDATE that only an unspent link passes
// (`used_at IS NULL` in VerificationSecretsRepo.consume). The first test races the spend itself from
// both instances (red without `used_at IS NULL`); the second races "Log in here" over HTTP from four
// browsers on both instances (red when neither guard holds). SQLite has one writer, and its calls run
// one after another, which proves nothing about this: PostgreSQL only (TEST_DATABASE_URL, set by
// npm run test:postgres).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askForLink } from '../helpers/emailLink.ts';
import { Client, createProject, POSTGRES_URL, startTestServer, uniqueEmail, type TestClock, type TestServer } from '../helpers/testServer.ts';

/** Links tried; each round is one link used BROWSERS times at once, spread over both instances. */
const ROUNDS = 12;
const BROWSERS = 4;
const HOUR = 3_600_000;

const LINK_LOGIN = { identifiers: { email: { verification: 'email-link' } }, passkeys: false };

const title = POSTGRES_URL
  ? 'a used link on two instances of one PostgreSQL database'
  : 'a used link on two instances of one PostgreSQL database: SKIPPED, no PostgreSQL given (TEST_DATABASE_URL; npm run test:postgres starts one)';

describe.skipIf(!POSTGRES_URL)(title, { timeout: 120_000 }, () => {
  const clock: TestClock = {
    now: Date.now(),
    advance(ms: number) {
      this.now += ms;
    },
  };
  let a: TestServer;
  let b: TestServer;
  let project: string;
  let email: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fapi-link-race-'));
    a = await startTestServer({ dir, clock });
    b = await startTestServer({ dir, clock });
    project = await createProject(a.url, LINK_LOGIN);
    email = uniqueEmail('race');
    const signup = await askForLink(a.url, project, 'signup', email);
    expect((await signup.asker.step('/v2/auth/email-link/open', { process: signup.process, token: signup.token })).block).toBe('completed');
  });
  afterAll(async () => {
    await a.stop(true);
    await b.stop();
  });

  /** A new log-in link for the account, asked for on one of the instances. */
  async function newLink(round: number): Promise<{ process: string; token: string }> {
    clock.advance(HOUR); // a new window for the sending limits
    return askForLink((round % 2 ? a : b).url, project, 'login', email);
  }

  it('spending a link from both instances at once: exactly one spend succeeds', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { process } = await newLink(round);
      const secret = await a.api.store.db.get<{ id: string }>("SELECT id FROM verification_secrets WHERE process_id = ? AND method = 'email-link'", [process]);
      const spends = await Promise.all(Array.from({ length: BROWSERS }, (_, i) => (i % 2 ? a : b).api.store.secrets.consume(secret!.id, clock.now)));
      expect(spends.filter(Boolean), `round ${round}`).toHaveLength(1);
    }
  });

  // Each call on a link's process holds the process locked (FlowEngine), so these calls also wait for
  // one another; the link's spend is the guard that remains where the lock does not hold.
  it('"Log in here" from several browsers on both instances at the same moment: one session per link, never two', async () => {
    const won: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { process, token } = await newLink(round);
      const browsers = Array.from({ length: BROWSERS }, (_, i) => new Client((i % 2 ? a : b).url, project));
      const answers = await Promise.all(browsers.map((browser) => browser.request('POST', '/v2/auth/email-link/here', { process, token })));
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      won.push(answers.filter((answer) => answer.body.blockBody.block === 'completed' && answer.body.blockBody.data.shortSession).length);
    }
    expect(won).toEqual(Array.from({ length: ROUNDS }, () => 1));
  });
});
