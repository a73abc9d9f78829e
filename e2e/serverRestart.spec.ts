import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, latestMessage, test, uniqueEmail, widget, type OutboxMessage } from './fixtures';

// The Frontend API goes away mid-flow and comes back: this test runs its own API instance as a child
// process (demo/server/main.ts, run by node with tsx as its loader, so that one process id is the
// server), kills it without warning and starts it again on the same port and database file. The
// demo page points the widget at that instance with ?api=.

const PORT = 3310;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const UNEXPECTED = 'Something went wrong. Please try again later, refresh the page, or contact support@example.com.';

interface ChildApi {
  url: string;
  kill(): Promise<void>;
}

async function startApi(databasePath: string, demoOrigin: string): Promise<ChildApi> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'demo/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, API_PORT: String(PORT), DATABASE_PATH: databasePath, DEMO_ORIGIN: demoOrigin },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the API did not start within 20 s:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Frontend API listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the API exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://localhost:${PORT}`,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

test('the API is killed after the code was sent and restarted: the same tab finishes the sign-up with that code', async ({ page, baseURL }) => {
  const folder = mkdtempSync(join(tmpdir(), 'corbado-restart-'));
  const storedProcess = () => page.evaluate(() => JSON.parse(localStorage.getItem('cbo_auth_process-pro-1') ?? '{}').id as string | undefined);
  let api = await startApi(join(folder, 'replaced.sqlite'), baseURL!);
  try {
    await page.goto(`/signup.html?api=${encodeURIComponent(api.url)}`);
    const view = widget(page);
    const signupHeading = view.getByRole('heading', { name: 'Create your account' });
    await expect(signupHeading).toBeVisible();
    await expect.poll(storedProcess).toMatch(/\w/);
    const forgotten = await storedProcess();

    // the database is replaced: the stored process means nothing to the server any more
    await api.kill();
    api = await startApi(join(folder, 'corbado.sqlite'), baseURL!);
    const loaded = page.waitForResponse((response) => response.url().startsWith(`${api.url}/v2/auth/process?`));
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
    await expect(view.getByText(email)).toBeVisible();
    await expect(firstCell).toHaveValue('');

    // back on the same port and database: the same code finishes the sign-up
    api = await startApi(join(folder, 'corbado.sqlite'), baseURL!);
    await firstCell.fill(code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(page.locator('#host-user')).toContainText('Katherine Johnson');
    await expect(page.locator('#host-user')).toContainText(email);
    const messages = (await (await fetch(`${api.url}/_dev/messages?to=${encodeURIComponent(email)}`)).json()) as OutboxMessage[];
    expect(messages).toHaveLength(1);
  } finally {
    await api.kill();
    rmSync(folder, { recursive: true, force: true });
  }
});
