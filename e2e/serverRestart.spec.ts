import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startApiInstance, type ApiInstance } from './apiInstances';
import { expect, latestMessage, messagesTo, test, uniqueEmail, widget } from './fixtures';

// The Frontend API goes away mid-flow and comes back: this test runs its own API instance as a child
// process (server/main.ts, run by node with tsx as its loader, so that one process id is the
// server), kills it without warning and starts it again on the same port and database file. The
// demo page points the widget at that instance with ?api=. The port is a free one the system gives,
// kept for the restarts (a fixed one met other checkouts' runs on the same machine).

const UNEXPECTED = 'Something went wrong. Please try again later, refresh the page, or contact support@example.com.';

function startApi(port: number, databasePath: string, demoOrigin: string): Promise<ApiInstance> {
  return startApiInstance({ API_PORT: String(port), DATABASE_PATH: databasePath, DEMO_ORIGIN: demoOrigin });
}

test('the API is killed after the code was sent and restarted: the same tab finishes the sign-up with that code', async ({ page, baseURL }) => {
  // three starts of server/main.ts under tsx, each seconds of CPU: at a load of 24 on two cores (npm test's
  // lanes beside other work) the three took more than the project's 30 s, and a fresh clone's CI has seen
  // one start take more than 20 s; nothing here is timed (each start has its own bound of 60 s)
  test.setTimeout(180_000);
  const folder = mkdtempSync(join(tmpdir(), 'corbado-restart-'));
  const storedProcess = () => page.evaluate(() => JSON.parse(localStorage.getItem('cbo_auth_process-pro-1') ?? '{}').id as string | undefined);
  const port = await freePort();
  let api = await startApi(port, join(folder, 'replaced.sqlite'), baseURL!);
  try {
    await page.goto(`/signup.html?api=${encodeURIComponent(api.url)}`);
    const view = widget(page);
    const signupHeading = view.getByRole('heading', { name: 'Create your account' });
    await expect(signupHeading).toBeVisible();
    await expect.poll(storedProcess).toMatch(/\w/);
    const forgotten = await storedProcess();

    // the database is replaced: the stored process means nothing to the server any more
    await api.kill();
    api = await startApi(port, join(folder, 'corbado.sqlite'), baseURL!);
    const loaded = page.waitForResponse((response) => response.url() === `${api.url}/v2/auth/process`);
    await page.reload();
    expect((await loaded).status()).toBe(404);
    await expect(signupHeading).toBeVisible();
    await expect.poll(storedProcess).not.toBe(forgotten);
    await expect(view.getByRole('alert')).toHaveCount(0);

    const email = uniqueEmail('restart');
    await view.getByRole('textbox', { name: 'Full name' }).fill('Katherine Johnson');
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    const codeScreen = view.getByRole('heading', { name: 'Verify your email address' });
    await expect(codeScreen).toBeVisible();
    const { code } = await latestMessage(email, undefined, api.url);

    // the server dies; a code entered meanwhile cannot be checked, and the screen stays
    await api.kill();
    const firstCell = view.getByRole('textbox', { name: 'Digit 1 of 6' });
    await firstCell.fill(code!);
    await expect(view.getByRole('alert').filter({ hasText: UNEXPECTED })).toBeVisible();
    await expect(codeScreen).toBeVisible();
    await expect(view.getByText(email, { exact: true })).toBeVisible();
    await expect(firstCell).toHaveValue('');

    // back on the same port and database: the same code finishes the sign-up
    api = await startApi(port, join(folder, 'corbado.sqlite'), baseURL!);
    await firstCell.fill(code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(page.locator('#host-user')).toContainText('Katherine Johnson');
    await expect(page.locator('#host-user')).toContainText(email);
    expect(await messagesTo(email, api.url)).toHaveLength(1);
  } finally {
    await api.kill();
    rmSync(folder, { recursive: true, force: true });
  }
});
