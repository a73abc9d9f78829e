import type { Browser, Page } from '@playwright/test';
import { addAuthenticator, API_URL, createProject, expect, latestMessage, messagesTo, test, uniqueEmail, widget } from './fixtures';

// Issue 24: an e-mail link lets in only the browser that asked for it, unless the person at the link
// says so. The attacker types the victim's address into log-in or sign-up in his browser and waits; the
// victim's browser (a context of its own: no storage, no cookies of the attacker's) loads the link.

// two browsers, a page loaded three times and the asking tab's polls waited for
test.describe.configure({ timeout: 60_000 });

/** An account on a link project, made over the API: its sign-up link opened by the process that asked. */
async function accountByLink(project: string, email: string, origin: string): Promise<void> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Corbado-ProjectID': project, Origin: origin };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${API_URL}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(res.status, path).toBe(200);
    return (await res.json()) as { token?: string; blockBody?: { block: string } };
  };
  headers['X-Corbado-Process-ID'] = (await post('/v2/auth/process/init', { clientInformation: {}, preferredBlock: 'signup-init' })).token!;
  await post('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
  const link = new URL((await latestMessage(email)).link!);
  const process = JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString()).process.id;
  expect((await post('/v2/auth/email-link/open', { process, token: link.searchParams.get('corbadoToken') })).blockBody!.block).toBe('completed');
}

/** The asking browser's log-in (or sign-up) up to "Check your inbox"; answers the link and the match code shown. */
async function askForLink(page: Page, project: string, email: string, authType: 'login' | 'signup'): Promise<{ link: string; code: string }> {
  const before = (await messagesTo(email))[0]?.id;
  await page.goto(authType === 'login' ? `/login.html?project=${project}` : `/?project=${project}#register`);
  const view = widget(page);
  await view.getByRole('textbox', { name: 'Email address' }).fill(email);
  await view.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(view.getByRole('heading', { name: authType === 'login' ? 'Check your inbox to log in' : 'Check your inbox' })).toBeVisible();
  const link = (await latestMessage(email, before)).link!;
  const code = (await view.locator('.cb-code').textContent()) ?? '';
  expect(code).toMatch(/^\d{3}$/);
  return { link, code };
}

/** A browser of the person who holds the mail: nothing of the asking browser's storage or cookies. */
async function elsewhere(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** Waits for `polls` more status polls of the asking tab, then checks it is still waiting, logged out. */
async function stillWaiting(page: Page, polls = 2): Promise<void> {
  for (let i = 0; i < polls; i++) await page.waitForResponse((r) => r.url().endsWith('/v2/auth/identifier/verify/status'));
  await expect(widget(page).getByRole('heading', { name: /^Check your inbox/ })).toBeVisible();
  await expect(page.locator('#host-auth-state')).toHaveText('logged out');
}

test.describe('the attacker gets nothing from a link he did not open himself', () => {
  test('log-in: the link loaded three times elsewhere shows what it asks and changes nothing; declined, the attacker tab says so', async ({ page, browser, baseURL }) => {
    const victim = uniqueEmail('victim-login');
    await accountByLink('pro-2', victim, new URL(baseURL!).origin);
    const { link, code } = await askForLink(page, 'pro-2', victim, 'login');
    const device = await elsewhere(browser);
    const approval = widget(device);
    for (let load = 0; load < 3; load++) {
      await device.goto(link);
      await expect(approval.getByRole('heading', { name: 'Did you ask to log in to Demo App (e-mail link)?' })).toBeVisible();
      await expect(approval.getByText(/^Asked \d+ seconds? ago in Chrome( Headless)? \d+ on Linux, not in this browser\.$/)).toBeVisible();
      await expect(approval.getByText(victim)).toBeVisible();
      await expect(approval.locator('.cb-code')).toHaveText(code);
      await expect(device.locator('#host-auth-state')).toHaveText('logged out');
      await stillWaiting(page);
    }
    await approval.getByRole('button', { name: "No, I didn't ask for this" }).click();
    await expect(approval.getByRole('heading', { name: 'Request declined' })).toBeVisible();
    await expect(approval.getByText('Nobody got in with this link.')).toBeVisible();
    await expect(widget(page).getByRole('heading', { name: 'Request declined' })).toBeVisible({ timeout: 10_000 });
    await expect(widget(page).getByRole('button', { name: 'Resend link' })).toHaveCount(0);
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    // the link is dead for everybody now
    await device.goto(link);
    await expect(approval.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
    await expect(device.locator('#host-auth-state')).toHaveText('logged out');
    await device.context().close();
  });

  test("sign-up: the victim's address and the attacker's passkey get nothing from a link loaded three times elsewhere, then declined", async ({ page, browser }) => {
    const authenticator = await addAuthenticator(page);
    const victim = uniqueEmail('victim-signup');
    await page.goto('/?project=pro-2#register');
    await widget(page).getByRole('textbox', { name: 'Email address' }).fill(victim);
    await widget(page).getByRole('button', { name: 'Continue', exact: true }).click();
    await widget(page).getByRole('button', { name: 'Create passkey' }).click();
    await expect(widget(page).getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    const code = await widget(page).locator('.cb-code').textContent();
    const link = (await latestMessage(victim)).link!;
    const device = await elsewhere(browser);
    const approval = widget(device);
    for (let load = 0; load < 3; load++) {
      await device.goto(link);
      await expect(approval.getByRole('heading', { name: 'Did you ask to sign up for Demo App (e-mail link)?' })).toBeVisible();
      await expect(approval.locator('.cb-code')).toHaveText(code!);
      await stillWaiting(page);
    }
    await approval.getByRole('button', { name: "No, I didn't ask for this" }).click();
    await expect(widget(page).getByRole('heading', { name: 'Request declined' })).toBeVisible({ timeout: 10_000 });
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    expect(await authenticator.credentials()).toHaveLength(1); // the attacker's, on no account
    await device.context().close();
  });
});

test.describe('the person who asked, at the link on another device', () => {
  test('[spec 4.email-poll-advance] "Yes, it\'s me: continue there" lets the waiting tab in; the link page says where to go on', async ({ page, browser, baseURL }) => {
    const email = uniqueEmail('approve');
    await accountByLink('pro-2', email, new URL(baseURL!).origin);
    const { link } = await askForLink(page, 'pro-2', email, 'login');
    const device = await elsewhere(browser);
    await device.goto(link);
    await widget(device).getByRole('button', { name: "Yes, it's me: continue there" }).click();
    await expect(widget(device).getByRole('heading', { name: 'Email address verified' })).toBeVisible();
    await expect(widget(device).getByText('Return to where you started logging in to continue.', { exact: false })).toBeVisible();
    await expect(device.locator('#host-auth-state')).toHaveText('logged out');
    await expect(page.locator('#host-auth-state')).toHaveText('logged in', { timeout: 10_000 });
    await expect(page.locator('#host-user')).toContainText(email);
    await device.context().close();
  });

  test('"Log in here instead" logs in the device with the mail, never the waiting tab', async ({ page, browser, baseURL }) => {
    const email = uniqueEmail('here-login');
    await accountByLink('pro-2', email, new URL(baseURL!).origin);
    const { link } = await askForLink(page, 'pro-2', email, 'login');
    const device = await elsewhere(browser);
    await device.goto(link);
    await widget(device).getByRole('button', { name: 'Log in here instead' }).click();
    await expect(device.locator('#host-auth-state')).toHaveText('logged in');
    await expect(device.locator('#host-user')).toContainText(email);
    await expect(widget(page).getByRole('heading', { name: 'Request declined' })).toBeVisible({ timeout: 10_000 });
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    await device.context().close();
  });

  test('"Sign up here instead" signs up on the device with the mail, the address proven; the waiting tab gets nothing', async ({ page, browser }) => {
    const email = uniqueEmail('here-signup');
    const { link } = await askForLink(page, 'pro-2', email, 'signup');
    const device = await elsewhere(browser);
    await device.goto(link);
    await widget(device).getByRole('button', { name: 'Sign up here instead' }).click();
    await expect(device.locator('#host-auth-state')).toHaveText('logged in');
    await expect(device.locator('#host-user')).toContainText(email);
    await expect(widget(page).getByRole('heading', { name: 'Request declined' })).toBeVisible({ timeout: 10_000 });
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    await device.context().close();
  });

  test('[security] "Sign up here instead" on a project with a required terms box: the device with the mail is asked for it, as its own sign-up would be', async ({ page, browser }) => {
    const terms = { id: 'terms', type: 'checkbox', label: { en: 'I accept the [terms of use]', de: 'Ich akzeptiere die [Nutzungsbedingungen]' }, url: 'https://shop.example/terms', version: 't1', required: true };
    const project = await createProject({ appName: 'Terms by Link', identifiers: { email: { verification: 'email-link' } }, passkeys: false, signupFields: [terms] });
    const email = uniqueEmail('here-terms');
    // browser A ticks the box and asks for the link
    await page.goto(`/?project=${project}#register`);
    await widget(page).getByRole('textbox', { name: 'Email address' }).fill(email);
    await widget(page).getByRole('checkbox', { name: 'I accept the terms of use' }).check();
    await widget(page).getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(widget(page).getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    // browser B opens it and signs up there: the form, the address filled in, the box B's to tick
    const device = await elsewhere(browser);
    await device.goto((await latestMessage(email)).link!);
    const view = widget(device);
    await view.getByRole('button', { name: 'Sign up here instead' }).click();
    const box = view.getByRole('checkbox', { name: 'I accept the terms of use' });
    await expect(box).toBeVisible();
    await expect(box).not.toBeChecked();
    await expect(view.getByRole('textbox', { name: 'Email address' })).toHaveValue(email);
    // asked, not yet refused: no error before B has answered
    await expect(box).not.toHaveAttribute('aria-invalid', 'true');
    await expect(device.locator('#host-auth-state')).toHaveText('logged out');
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText('Please accept this to continue.')).toBeVisible();
    await expect(device.locator('#host-auth-state')).toHaveText('logged out');
    await box.check();
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(device.locator('#host-auth-state')).toHaveText('logged in');
    await expect(device.locator('#host-user')).toContainText(email);
    // the agreement on record is B's, with the text B was shown
    const me = await device.evaluate(
      async ({ api, project }) => {
        const response = await fetch(`${api}/v2/me`, { headers: { 'X-Corbado-ProjectID': project, Authorization: `Bearer ${localStorage.getItem('cbo_long_session')}` } });
        return (await response.json()) as { signupFields?: unknown[] };
      },
      { api: API_URL, project },
    );
    expect(me.signupFields).toEqual([
      expect.objectContaining({ id: 'terms', accepted: true, version: 't1', source: 'signup', shown: { language: 'en', label: terms.label.en, url: terms.url } }),
    ]);
    await expect(widget(page).getByRole('heading', { name: 'Request declined' })).toBeVisible({ timeout: 10_000 });
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    await device.context().close();
  });

  test('a project that refuses approvals offers only "Log in here instead"', async ({ page, browser, baseURL }) => {
    const project = await createProject({ appName: 'Same Browser Only', identifiers: { email: { verification: 'email-link' } }, passkeys: false, emailLinkOtherDevice: 'refuse' });
    const email = uniqueEmail('refuse');
    await accountByLink(project, email, new URL(baseURL!).origin);
    const before = (await messagesTo(email))[0]?.id;
    await page.goto(`/login.html?project=${project}`);
    await widget(page).getByRole('textbox', { name: 'Email address' }).fill(email);
    await widget(page).getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(widget(page).getByRole('heading', { name: 'Check your inbox to log in' })).toBeVisible();
    await expect(widget(page).locator('.cb-code')).toHaveCount(0);
    const device = await elsewhere(browser);
    await device.goto((await latestMessage(email, before)).link!);
    const approval = widget(device);
    await expect(approval.getByRole('heading', { name: 'Open this link in the browser where you asked for it' })).toBeVisible();
    await expect(approval.getByRole('button')).toHaveText(['Log in here instead']);
    await stillWaiting(page);
    await approval.getByRole('button', { name: 'Log in here instead' }).click();
    await expect(device.locator('#host-auth-state')).toHaveText('logged in');
    await device.context().close();
  });
});

test('[spec 1.auth-email-link] the same browser still continues by itself: a log-in link opened in another tab logs in there', async ({ page, baseURL }) => {
  const email = uniqueEmail('same-browser');
  await accountByLink('pro-2', email, new URL(baseURL!).origin);
  const { link } = await askForLink(page, 'pro-2', email, 'login');
  const second = await page.context().newPage();
  await second.goto(link);
  await expect(second.locator('#host-auth-state')).toHaveText('logged in');
  await expect(second.locator('#host-user')).toContainText(email);
  await expect(widget(second).getByRole('heading', { name: /^Did you ask/ })).toHaveCount(0);
  await expect(widget(page).getByText('You logged in in another tab.', { exact: false })).toBeVisible({ timeout: 10_000 });
});
