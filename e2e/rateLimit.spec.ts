import type { Page, Request } from '@playwright/test';
import { afterPreflightWarmUp, API_URL, createProject, expect, fulfillApiError, latestMessage, startSignUpByEmail, test, uniqueEmail, widget } from './fixtures';

// "Too many attempts": the Frontend API refuses a call with HTTP 429, Retry-After and its error
// envelope. The widget says how long to wait, in the visitor's language, on the screen where they
// acted, keeps what they typed, and neither starts the process again nor gives up on the view.
// (The answers are injected here; the server's own limits have their scenario beside its limits.)

/** Refuses the next call to an endpoint with 429; Retry-After is readable cross-origin only when exposed. */
function refuseNext(page: Page, endpoint: string, retryAfter: string, exposed = true) {
  return page.route(
    `${API_URL}/v2/auth/${endpoint}`,
    (route) =>
      fulfillApiError(route, 429, 'too_many_requests', 'Too many requests', {
        'Retry-After': retryAfter,
        ...(exposed ? { 'Access-Control-Expose-Headers': 'Retry-After' } : {}),
      }),
    { times: 1 },
  );
}

/** Process calls that would start or load the process again, from now on (after the first visit's preflight warm-up). */
async function watchProcessReloads(page: Page): Promise<Request[]> {
  await afterPreflightWarmUp(page);
  const reloads: Request[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === '/v2/auth/process/init' || path === '/v2/auth/process') reloads.push(request);
  });
  return reloads;
}

test.describe('too many attempts', () => {
  test('at log-in submit: the wait is named, the e-mail stays, and the same process goes on', async ({ page }) => {
    await page.goto('/login.html');
    const view = widget(page);
    const identifier = view.getByRole('textbox', { name: 'Email address' });
    const submit = view.getByRole('button', { name: 'Continue', exact: true });
    await expect(identifier).toBeVisible();
    const reloads = await watchProcessReloads(page);
    const email = uniqueEmail('limited');
    await identifier.fill(email);

    await refuseNext(page, 'login/init', '120');
    await submit.click();
    await expect(view.getByRole('alert')).toHaveText('Too many attempts. Please try again in 2 minutes.');
    await expect(view.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(identifier).toHaveValue(email);

    // a Retry-After the server does not expose to the page cannot be read: "later"
    await refuseNext(page, 'login/init', '120', false);
    await submit.click();
    await expect(view.getByRole('alert')).toHaveText('Too many attempts. Please try again later.');
    await expect(identifier).toHaveValue(email);

    // once the server takes calls again, the same process answers
    await submit.click();
    await expect(view.getByText("Couldn't find your account.")).toBeVisible();
    await expect(view.getByText(/Too many attempts/)).toHaveCount(0);
    expect(reloads).toEqual([]);
  });

  test('at sign-up submit and code entry, in German: the fields and the code screen stay', async ({ page }) => {
    await page.goto('/signup.html?lang=de');
    const view = widget(page);
    const fullName = view.getByRole('textbox', { name: 'Vollständiger Name' });
    const address = view.getByRole('textbox', { name: 'E-Mail-Adresse' });
    const submit = view.getByRole('button', { name: 'Weiter', exact: true });
    await expect(fullName).toBeVisible();
    const reloads = await watchProcessReloads(page);
    const email = uniqueEmail('limited-signup');
    await fullName.fill('Ada Lovelace');
    await address.fill(email);

    await refuseNext(page, 'signup/init', '30');
    await submit.click();
    await expect(view.getByRole('alert')).toHaveText('Zu viele Versuche. Bitte versuche es in weniger als einer Minute erneut.');
    await expect(view.getByRole('heading', { name: 'Konto erstellen' })).toBeVisible();
    await expect(fullName).toHaveValue('Ada Lovelace');
    await expect(address).toHaveValue(email);

    await submit.click();
    const codeScreen = view.getByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' });
    await expect(codeScreen).toBeVisible();
    const { code } = await latestMessage(email);
    const firstCell = view.getByRole('textbox', { name: 'Ziffer 1 von 6' });

    await refuseNext(page, 'identifier/verify/finish', '60');
    await firstCell.fill(code!);
    await expect(view.getByRole('alert')).toHaveText('Zu viele Versuche. Bitte versuche es in einer Minute erneut.');
    await expect(codeScreen).toBeVisible();
    // the cells are cleared for the next try, as after any failed code
    await expect(firstCell).toHaveValue('');
    await expect(firstCell).toBeFocused();

    // (no authenticator in this browser: the sign-up completes without offering a passkey)
    await firstCell.fill(code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(page.locator('#host-user')).toContainText('Ada Lovelace');
    expect(reloads).toEqual([]);
  });
});

test.describe('too many attempts on a code screen', () => {
  test('the message sits on the code screen it happened on, with the webmail shortcut, and goes once the flow moves on', async ({ page }) => {
    await page.goto('/signup.html');
    const view = widget(page);
    await expect(view.getByRole('textbox', { name: 'Full name' })).toBeVisible();
    const reloads = await watchProcessReloads(page);
    // a Gmail address: the code screen offers its inbox (the address is only ever "sent" to the dev outbox)
    const email = uniqueEmail('limited-code').replace('@example.com', '@gmail.com');
    await view.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    const codeScreen = view.getByRole('heading', { name: 'Verify your email address' });
    await expect(codeScreen).toBeVisible();
    await expect(view.getByRole('link', { name: 'Open Gmail' })).toHaveAttribute('href', /^https:\/\/mail\.google\.com\//);
    const { code } = await latestMessage(email);
    const firstCell = view.getByRole('textbox', { name: 'Digit 1 of 6' });

    await refuseNext(page, 'identifier/verify/finish', '45');
    await firstCell.fill(code!);
    // on the card of the code screen itself, not elsewhere, and the screen stays
    const card = view.locator('.cb-card').filter({ has: page.getByRole('heading', { name: 'Verify your email address' }) });
    await expect(card.getByRole('alert')).toHaveText('Too many attempts. Please try again in less than a minute.');
    await expect(codeScreen).toBeVisible();
    await expect(firstCell).toHaveValue('');
    await expect(firstCell).toBeFocused();

    await firstCell.fill(code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(view.getByRole('alert')).toHaveCount(0);
    expect(reloads).toEqual([]);
  });

  test("the message belongs to the block it happened on: going back to log-in leaves it behind", async ({ page }) => {
    await page.goto('/');
    const view = widget(page);
    await view.getByRole('button', { name: 'Sign up' }).click();
    await expect(view.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await view.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
    await view.getByRole('textbox', { name: 'Email address' }).fill(uniqueEmail('limited-back'));
    await refuseNext(page, 'signup/init', '120');
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByRole('alert')).toHaveText('Too many attempts. Please try again in 2 minutes.');
    await page.goBack();
    await expect(view.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(view.getByRole('alert')).toHaveCount(0);
  });
});

test.describe("the server's own limits", () => {
  test('log-in probing from one address: the third attempt in a minute waits, with the e-mail kept', async ({ page }) => {
    const projectId = await createProject({ limits: { loginInitsPerIp: { max: 2, windowSeconds: 60 } } });
    await page.goto(`/login.html?project=${projectId}`);
    const view = widget(page);
    const identifier = view.getByRole('textbox', { name: 'Email address' });
    const submit = view.getByRole('button', { name: 'Continue', exact: true });
    for (let i = 0; i < 2; i++) {
      await identifier.fill(uniqueEmail(`probe-${i}`));
      await submit.click();
      await expect(view.getByText("Couldn't find your account.")).toBeVisible();
    }
    const email = uniqueEmail('probe-limited');
    await identifier.fill(email);
    const refused = page.waitForResponse((response) => response.url().endsWith('/v2/auth/login/init'));
    await submit.click();
    const answer = await refused;
    expect(answer.status()).toBe(429);
    const wait = Number(answer.headers()['retry-after']);
    expect(wait).toBeGreaterThan(0);
    // the text follows the Retry-After of this very answer (no clock between it and the assertion):
    // under 60 s "less than a minute", then whole minutes rounded up
    const minutes = Math.ceil(wait / 60);
    const when = wait < 60 ? 'less than a minute' : minutes === 1 ? '1 minute' : `${minutes} minutes`;
    await expect(view.getByRole('alert')).toHaveText(`Too many attempts. Please try again in ${when}.`);
    await expect(identifier).toHaveValue(email);
  });

  test('codes for one address: once its sends are used up, a new sign-up waits and keeps the fields', async ({ page }) => {
    const projectId = await createProject({ fullNameRequired: true, passkeys: false, limits: { emailSendsPerIdentifier: { max: 1, windowSeconds: 900 } } });
    const email = uniqueEmail('send-limited');
    const signUp = () => startSignUpByEmail(page, email, { fullName: 'Ada Lovelace', url: `/signup.html?project=${projectId}` });
    await expect((await signUp()).getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    // a second process (a new tab, after clearing the stored one) for the same address
    await page.evaluate(() => localStorage.clear());
    const refused = page.waitForResponse((response) => response.url().endsWith('/v2/auth/signup/init'));
    const view = await signUp();
    const answer = await refused;
    expect(answer.status()).toBe(429);
    // 15 minutes, counted in tenths: an event counts until its tenth has left the window
    const minutes = Math.ceil(Number(answer.headers()['retry-after']) / 60);
    expect(minutes).toBeGreaterThanOrEqual(15);
    expect(minutes).toBeLessThanOrEqual(17);
    await expect(view.getByRole('alert')).toHaveText(`Too many attempts. Please try again in ${minutes} minutes.`);
    await expect(view.getByRole('textbox', { name: 'Full name' })).toHaveValue('Ada Lovelace');
    await expect(view.getByRole('textbox', { name: 'Email address' })).toHaveValue(email);
  });
});
