import type { Page } from '@playwright/test';
import { addAuthenticator, answerPasskeyLogin, expect, latestMessage, logOutOnAccountPage, test, uniqueEmail, useAnotherAccount, widget } from './fixtures';

// pro-8: the account is created before its e-mail address is verified (post-signup-email-verify); the
// code comes last and may be put off, the address then stays pending until it is verified.

async function startSignup(page: Page, email: string) {
  await page.goto('/?project=pro-8#register');
  const view = widget(page);
  await view.getByRole('textbox', { name: 'Email address' }).fill(email);
  await view.getByRole('button', { name: 'Continue', exact: true }).click();
}

test.describe('pro-8 e-mail verified after sign-up', () => {
  test('passkey first, then the code to the address of the account just created', async ({ page }) => {
    const authenticator = await addAuthenticator(page);
    const email = uniqueEmail('post-signup');
    await startSignup(page, email);
    const view = widget(page);
    await expect(view.getByRole('heading', { name: 'Create your account with a passkey' })).toBeVisible();
    await view.getByRole('button', { name: 'Create passkey' }).click();
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await expect(page).toHaveURL(/#post-signup-email-verify$/);
    await expect(view.getByRole('button', { name: 'Verify later' })).toBeVisible();
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email)).code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    expect(await authenticator.credentials()).toHaveLength(1);
    await page.goto('/account.html?project=pro-8');
    await expect(page.locator('#user-details').getByRole('listitem').filter({ hasText: email }).getByText('Verified')).toBeVisible();
  });

  test('"Verify later" logs in with the address pending; the account page verifies it', async ({ page }) => {
    const email = uniqueEmail('verify-later');
    await startSignup(page, email);
    const view = widget(page);
    await expect(view.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await view.getByRole('button', { name: 'Verify later' }).click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');

    await page.goto('/account.html?project=pro-8');
    const row = page.locator('#user-details').getByRole('listitem').filter({ hasText: email });
    await expect(row.getByText('Pending')).toBeVisible();
    const sent = (await latestMessage(email)).id;
    await row.getByRole('button', { name: `Verify: ${email}` }).click();
    await page.locator('#user-details').getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email, sent)).code!);
    await expect(row.getByText('Verified')).toBeVisible();
  });

  test('[spec 4.passkey-unconfirmed] a passkey made before "Verify later" is refused in the autofill until the address is verified', async ({ page }) => {
    const authenticator = await addAuthenticator(page);
    const email = uniqueEmail('pending-passkey');
    await startSignup(page, email);
    const view = widget(page);
    await view.getByRole('button', { name: 'Create passkey' }).click();
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await view.getByRole('button', { name: 'Verify later' }).click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await logOutOnAccountPage(page, 'pro-8');

    // the autofill offers the passkey and the visitor picks it: refused, said why, still logged out
    await page.route(
      '**/v2/auth/passkey/mediation/finish',
      async (route) => {
        await authenticator.setPresence(false); // the visitor does not pick it again
        await route.fallback();
      },
      { times: 1 },
    );
    const refused = page.waitForResponse((response) => response.url().endsWith('/v2/auth/passkey/mediation/finish'));
    await page.goto('/login.html?project=pro-8');
    // the autofill is the plain log-in's (this browser logged in: its account is offered first)
    await useAnotherAccount(page);
    expect((await refused).status()).toBe(200);
    await expect(view.getByText('This passkey is not confirmed yet. Log in once by email to confirm it.')).toBeVisible();
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');

    // asked for by name, the passkey logs in; the account page verifies the address
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    await answerPasskeyLogin(page, authenticator);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await page.goto('/account.html?project=pro-8');
    const row = page.locator('#user-details').getByRole('listitem').filter({ hasText: email });
    const sent = (await latestMessage(email)).id;
    await row.getByRole('button', { name: `Verify: ${email}` }).click();
    await page.locator('#user-details').getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email, sent)).code!);
    await expect(row.getByText('Verified')).toBeVisible();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');

    // confirmed: the autofill logs in
    const finished = page.waitForResponse((response) => response.url().endsWith('/v2/auth/passkey/mediation/finish'));
    await page.goto('/login.html?project=pro-8');
    await useAnotherAccount(page);
    expect((await finished).status()).toBe(200);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  });
});
