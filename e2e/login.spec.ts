import type { Page } from '@playwright/test';
import { addAuthenticator, answerPasskeyLogin, expect, latestMessage, logOutOnAccountPage, signUpByEmailCode, test, uniqueEmail, useAnotherAccount, widget } from './fixtures';

// Log-in after sign-up, against pro-1: with the passkey created at sign-up, and by e-mail code. This
// browser signed up, so log-in offers that account first; these tests take the plain log-in ("Use
// another account"), e2e/welcome-back.spec.ts the offer.

async function signUp(page: Page, email: string, passkey: boolean) {
  await signUpByEmailCode(page, email, { fullName: 'Login Tester', passkey });
  await logOutOnAccountPage(page);
}

test.describe('log-in', () => {
  test('[spec 4.conditional-ui-once] with the passkey offered in the autofill (conditional UI)', async ({ page }) => {
    await addAuthenticator(page);
    const email = uniqueEmail('login-conditional');
    await signUp(page, email, true);
    const finished = page.waitForResponse((response) => response.url().endsWith('/v2/auth/passkey/mediation/finish'));
    // the virtual authenticator answers the autofill request as a visitor picking the passkey would
    await page.goto('/login.html');
    await useAnotherAccount(page);
    expect((await finished).status()).toBe(200);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(page.locator('#host-user')).toContainText(email);
  });

  test('[spec 1.auth-passkey] [spec 4.login-path] with the passkey created at sign-up, after entering the e-mail', async ({ page }) => {
    const authenticator = await addAuthenticator(page);
    const email = uniqueEmail('login-passkey');
    await signUp(page, email, true);
    // no presence while the autofill offers the passkey, so that the visitor types the address first
    await authenticator.setPresence(false);
    await page.goto('/login.html');
    await useAnotherAccount(page);
    const view = widget(page);
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    await answerPasskeyLogin(page, authenticator);
    const started = page.waitForRequest((request) => request.url().endsWith('/v2/auth/passkey/login/start'));
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    // passkey-background starts the log-in by itself
    await started;
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(page.locator('#host-user')).toContainText(email);
    await expect(page.locator('#host-events')).toContainText('onLoggedIn');
  });

  test('[spec 1.auth-email-otp] [spec 4.login-path] [spec 6.anonymous] by e-mail code for an account without a passkey', async ({ page }) => {
    const email = uniqueEmail('login-code');
    await signUp(page, email, false);
    await page.goto('/login.html');
    await useAnotherAccount(page);
    const view = widget(page);
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email)).code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  });

  test('an unknown account is named under the field', async ({ page }) => {
    await page.goto('/login.html');
    const view = widget(page);
    await view.getByRole('textbox', { name: 'Email address' }).fill(uniqueEmail('nobody'));
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText("Couldn't find your account.")).toBeVisible();
  });

  test('[spec 1.audience] [spec 6.user-details] [spec 6.own-passkeys] the account page shows the user and the passkey after logging in', async ({ page }) => {
    await addAuthenticator(page);
    const email = uniqueEmail('account');
    await signUp(page, email, true);
    await page.goto('/login.html');
    await widget(page).getByRole('button', { name: 'Log in with passkey' }).click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await page.goto('/account.html');
    await expect(page.locator('#user-details').getByText(email)).toBeVisible();
    await expect(page.locator('#user-details').getByText('Verified')).toBeVisible();
    await expect(page.locator('#user-details').getByText('Login Tester')).toBeVisible();
    await expect(page.locator('#widget').getByRole('heading', { name: 'Your passkeys' })).toBeVisible();
    await expect(page.locator('#widget').getByRole('listitem')).toHaveCount(1);
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    await expect(page.locator('#widget').getByText('Please log in to see this.')).toBeVisible();
  });
});
