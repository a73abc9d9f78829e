import type { Page } from '@playwright/test';
import { expect, latestMessage, logOutOnAccountPage, signUpByEmailCode, test, uniqueEmail, widget } from './fixtures';

// pro-1: social sign-in through the provider simulators on the API's origin, each shaped like its
// provider (Google's ID token with email_verified, Microsoft's with xms_edov or nothing, GitHub's
// /user/emails). The browser really leaves the demo page, consents on the simulator and comes back.

// Every journey here crosses three origins (the page, the API, the provider's page on the API) and
// loads the demo page twice: a minute each, three for those with two journeys (test.slow).
test.describe.configure({ timeout: 60_000 });

type Provider = 'google' | 'microsoft' | 'github';
const NAMES: Record<Provider, string> = { google: 'Google', microsoft: 'Microsoft', github: 'GitHub' };
/** A wrong answer per provider that must be refused: ID tokens for Google and Microsoft, GitHub has none. */
const FAULTS: Record<Provider, { value: string; what: string }> = {
  google: { value: 'id-token-tampered', what: 'an ID token changed after it was signed' },
  microsoft: { value: 'id-token-nonce', what: 'an ID token for another nonce' },
  github: { value: 'token-error', what: 'its refusal of the code, sent with HTTP 200' },
};

interface Answer {
  email: string;
  name?: string;
  /** what the provider says about the address (the simulator's checkbox) */
  vouched: boolean;
  fault?: string;
}

/** On the simulator's page: the account the person signs in with, and Continue. */
async function consent(page: Page, provider: Provider, answer: Answer): Promise<void> {
  await page.waitForURL(new RegExp(`/_dev/oauth/${provider}/`));
  await expect(page.getByText('Local simulator')).toBeVisible();
  await expect(page.getByRole('heading', { name: `Sign in with ${NAMES[provider]}` })).toBeVisible();
  await page.getByLabel('Email', { exact: true }).fill(answer.email);
  if (answer.name) await page.getByLabel('Full name').fill(answer.name);
  await page.getByRole('checkbox').setChecked(answer.vouched);
  if (answer.fault) await page.getByLabel('Answer the app (for tests)').selectOption(answer.fault);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
}

/** Starts the provider's sign-in on a demo page and consents; ends back on that page. */
async function signInWith(page: Page, provider: Provider, answer: Answer, url = '/?project=pro-1', welcomeBack = false): Promise<void> {
  await page.goto(url);
  // a browser that logged in before is offered that account first: the provider buttons are one click away
  if (welcomeBack) await widget(page).getByRole('button', { name: 'Use another account' }).click();
  await widget(page).getByRole('button', { name: `Continue with ${NAMES[provider]}` }).click();
  await consent(page, provider, answer);
  const path = new URL(url, 'http://x').pathname;
  // back on the page the widget was on (no query: the demo remembers the project)
  await page.waitForURL((u) => u.pathname === path && u.search === '');
}

async function hostUser(page: Page): Promise<{ sub: string; email?: string; email_verified?: boolean }> {
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  return JSON.parse((await page.locator('#host-user').textContent())!) as { sub: string; email?: string };
}

async function enterCode(page: Page, email: string): Promise<void> {
  const { code } = await latestMessage(email);
  await widget(page).getByRole('textbox', { name: 'Digit 1 of 6' }).fill(code!);
}

test.describe('[spec 1.auth-social] [spec 2.social-redirect] each provider against its simulator', () => {
  for (const provider of ['google', 'microsoft', 'github'] as const) {
    const name = NAMES[provider];

    test.describe(`pro-1 with ${name}`, () => {
      test(`signs up with ${name}, and logs in with it again as the same user`, async ({ page }) => {
        // two journeys, or a journey and a check on another page
        test.slow();
        const email = uniqueEmail(`social-${provider}`);
        await signInWith(page, provider, { email, name: 'Grace Social', vouched: true });
        const user = await hostUser(page);
        expect(user).toMatchObject({ email, email_verified: true });
        await expect(page.locator('#project-id')).toHaveText('pro-1');
        await expect(page.locator('#host-events')).toContainText('onLoggedIn');

        await logOutOnAccountPage(page);
        await signInWith(page, provider, { email, vouched: true }, '/login.html?project=pro-1');
        expect((await hostUser(page)).sub).toBe(user.sub);
      });

      test(`${name} links to an account made by e-mail code, and the account's address is told`, async ({ page }) => {
        // two journeys, or a journey and a check on another page
        test.slow();
        const email = uniqueEmail(`social-link-${provider}`);
        await signUpByEmailCode(page, email, { fullName: 'Erna Email' });
        const owner = await hostUser(page);
        await logOutOnAccountPage(page);

        await signInWith(page, provider, { email, vouched: true }, '/login.html?project=pro-1', true);
        expect((await hostUser(page)).sub).toBe(owner.sub);
        const notice = await latestMessage(email);
        expect(notice.subject).toBe(`${name} is now linked to your Demo App account`);
        await page.goto('/account.html?project=pro-1');
        const details = page.locator('#user-details');
        await expect(details.getByRole('heading', { name: 'Social accounts' })).toBeVisible();
        await expect(details.getByRole('button', { name: `Remove: ${name}` })).toBeVisible();
      });

      test(`an address ${name} does not vouch for gets a code before it counts`, async ({ page }) => {
        // two journeys, or a journey and a check on another page
        test.slow();
        const email = uniqueEmail(`social-unvouched-${provider}`);
        await signInWith(page, provider, { email, vouched: false });
        const view = widget(page);
        // the account exists; the address waits for its code, which may be put off
        await expect(view.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
        await expect(view.getByRole('button', { name: 'Verify later' })).toBeVisible();
        await expect(page.locator('#host-auth-state')).not.toHaveText('logged in');
        await enterCode(page, email);
        expect(await hostUser(page)).toMatchObject({ email, email_verified: true });
      });

      test(`cancelling at ${name} shows it in the widget`, async ({ page }) => {
        await page.goto('/?project=pro-1');
        await widget(page).getByRole('button', { name: `Continue with ${name}` }).click();
        await page.waitForURL(new RegExp(`/_dev/oauth/${provider}/`));
        await page.getByRole('button', { name: 'Cancel' }).click();

        const view = widget(page);
        await expect(view.getByText('The sign-in with the provider was cancelled.')).toBeVisible();
        await expect(page.locator('#host-auth-state')).toHaveText('logged out');
        // the buttons stay usable for another attempt
        await expect(view.getByRole('button', { name: `Continue with ${name}` })).toBeEnabled();
      });

      test(`refuses ${FAULTS[provider].what}`, async ({ page }) => {
        // two journeys, or a journey and a check on another page
        test.slow();
        const email = uniqueEmail(`social-fault-${provider}`);
        await signInWith(page, provider, { email, vouched: true, fault: FAULTS[provider].value });
        await expect(widget(page).getByText('The sign-in with the provider did not work. Please try again.')).toBeVisible();
        await expect(page.locator('#host-auth-state')).toHaveText('logged out');
        // nobody was made with the address: a log-in by it is an unknown account
        await page.goto('/login.html?project=pro-1');
        await widget(page).getByRole('textbox', { name: 'Email address' }).fill(email);
        await widget(page).getByRole('button', { name: 'Continue', exact: true }).click();
        await expect(widget(page).getByText("Couldn't find your account")).toBeVisible();
      });
    });
  }
});

test.describe('pro-1 provider accounts on the account page', () => {
  test('an address Microsoft does not vouch for links to an existing account only after the code to it', async ({ page }) => {
    // two journeys, or a journey and a check on another page
    test.slow();
    const email = uniqueEmail('social-ms-proof');
    await signUpByEmailCode(page, email, { fullName: 'Petra Proof' });
    const owner = await hostUser(page);
    await logOutOnAccountPage(page);

    await signInWith(page, 'microsoft', { email, vouched: false }, '/login.html?project=pro-1', true);
    await expect(widget(page).getByRole('heading', { name: 'Enter your code' })).toBeVisible();
    await expect(page.locator('#host-auth-state')).not.toHaveText('logged in');
    await enterCode(page, email);
    expect((await hostUser(page)).sub).toBe(owner.sub);
    await expect.poll(async () => (await latestMessage(email)).subject).toBe('Microsoft is now linked to your Demo App account');
  });

  test('lists the linked providers and removes one while another way in remains', async ({ page }) => {
    // two journeys, or a journey and a check on another page
    test.slow();
    const email = uniqueEmail('social-unlink');
    await signInWith(page, 'github', { email, vouched: true });
    await hostUser(page);
    await page.goto('/account.html?project=pro-1');
    const details = page.locator('#user-details');
    await details.getByRole('button', { name: 'Remove: GitHub' }).click();
    const dialog = details.getByRole('dialog', { name: 'Remove GitHub?' });
    await expect(dialog).toContainText('You will no longer be able to log in with it.');
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(details.getByRole('heading', { name: 'Social accounts' })).toHaveCount(0);
    // the verified address is the way in that remains
    await expect(details.getByText(email)).toBeVisible();
  });

  test('keeps the only way in: an account whose address Microsoft did not vouch for', async ({ page }) => {
    // two journeys, or a journey and a check on another page
    test.slow();
    const email = uniqueEmail('social-last-way');
    await signInWith(page, 'microsoft', { email, vouched: false });
    await widget(page).getByRole('button', { name: 'Verify later' }).click();
    await hostUser(page);
    await page.goto('/account.html?project=pro-1');
    const details = page.locator('#user-details');
    await details.getByRole('button', { name: 'Remove: Microsoft' }).click();
    await details.getByRole('dialog', { name: 'Remove Microsoft?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(details.getByRole('alert')).toHaveText('Verify another way to log in before you remove this one.');
    await expect(details.getByRole('button', { name: 'Remove: Microsoft' })).toBeVisible();
  });
});

test.describe('pro-5 social log-in without public sign-up', () => {
  test('[spec 2.social-verify] an unknown account is refused on the social-verify screen; Back returns to log-in', async ({ page }) => {
    await signInWith(page, 'google', { email: uniqueEmail('social-refused'), vouched: true }, '/?project=pro-5');
    const view = widget(page);
    const refusal = 'There is no account for this address, and this app does not allow new sign-ups.';
    await expect(view.getByRole('alert').getByRole('heading', { name: refusal })).toBeVisible();
    // the screen says it once: no popup repeats it
    await expect(view.getByText(refusal)).toHaveCount(1);
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    await view.getByRole('button', { name: 'Back' }).click();
    await expect(view.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(view.getByText(refusal)).toHaveCount(0);
    await expect(view.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
  });
});
