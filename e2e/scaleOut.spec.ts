import { startApiInstance, startLoadBalancer, type ApiInstance, type LoadBalancer } from './apiInstances';
import { addAuthenticator, expect, latestMessage, test, uniqueEmail } from './fixtures';

// Scale-out: two Frontend API instances on different ports share one PostgreSQL database, behind a
// load balancer that alternates every request between them. A sign-up in the real widget must not
// notice. Runs from `npm run test:postgres` (scripts/test-postgres.ts), which starts PostgreSQL and
// sets SCALE_OUT_DATABASE_URL.

const DATABASE_URL = process.env.SCALE_OUT_DATABASE_URL;

test.describe('two API instances on one PostgreSQL database', () => {
  test.skip(!DATABASE_URL, 'needs PostgreSQL: run by `npm run test:postgres` (part of npm test), which starts a throw-away cluster');

  let balancer: LoadBalancer;
  const instances: ApiInstance[] = [];

  test.beforeAll(async ({ baseURL }) => {
    balancer = await startLoadBalancer();
    // both start at once: the migrations take turns on the database
    const env = { DATABASE_URL: DATABASE_URL!, PUBLIC_URL: balancer.url, DEMO_ORIGIN: baseURL! };
    instances.push(...(await Promise.all([startApiInstance(env), startApiInstance(env)])));
    balancer.upstreams = instances.map((i) => i.url);
  });

  test.afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await balancer?.close();
  });

  test('a sign-up with an e-mail code and a passkey, every request alternating between the instances', async ({ page }) => {
    await addAuthenticator(page);
    await page.goto('/blank.html');
    await page.addScriptTag({ url: '/dist/corbado.js' });
    await page.evaluate(async (apiUrl) => {
      await Corbado.load({ projectId: 'pro-1', frontendApiUrl: apiUrl, autoDetectLanguage: false });
      Corbado.mountSignUpUI(document.getElementById('w')!);
    }, balancer.url);
    const view = page.locator('#w');
    const email = uniqueEmail('scale-out');
    await view.getByRole('textbox', { name: 'Full name' }).fill('Scale Out');
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    // the code is in the shared database, whichever instance sent it
    const { code } = await latestMessage(email, undefined, balancer.url);
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill(code!);
    await view.getByRole('button', { name: 'Create passkey' }).click();
    await expect(view.getByRole('heading', { name: 'Passkey created' })).toBeVisible();
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect.poll(() => page.evaluate(() => Corbado.isAuthenticated)).toBe(true);
    expect(await page.evaluate(() => Corbado.user?.email)).toBe(email);

    // every request alternated; the process calls of this sign-up went to both instances
    const served = balancer.served.map((s) => s.upstream);
    expect(served.every((upstream, i) => i === 0 || upstream !== served[i - 1])).toBe(true);
    const calls = balancer.served.filter((s) => s.path.startsWith('/v2/auth/'));
    expect(calls.map((c) => c.path.replace(/\?.*/, ''))).toEqual(
      expect.arrayContaining(['/v2/auth/process/init', '/v2/auth/signup/init', '/v2/auth/identifier/verify/finish', '/v2/auth/passkey/append/finish']),
    );
    for (const instance of instances) expect(calls.filter((c) => c.upstream === instance.url).length).toBeGreaterThanOrEqual(2);

    // the session works on either instance: each checks the other's signature and long session
    const longSession = await page.evaluate(() => localStorage.getItem('cbo_long_session'));
    for (const instance of instances) {
      const me = await fetch(`${instance.url}/v2/me`, { headers: { 'X-Corbado-ProjectID': 'pro-1', Authorization: `Bearer ${longSession}` } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { identifiers: { value: string }[] }).identifiers[0]!.value).toBe(email);
    }
  });
});
