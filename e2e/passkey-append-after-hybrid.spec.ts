import type { Page } from '@playwright/test';
import { addAuthenticator, answerPasskeyLogin, expect, latestMessage, logOutOnAccountPage, startSignUpByEmail, test, uniqueEmail, useAnotherAccount, widget } from './fixtures';

// pro-9: after a log-in with a passkey from another device (a phone over hybrid, here a virtual 'cable'
// authenticator), a passkey for this device is offered (passkey-append, variant after-hybrid).

/** Signs up with the passkey on the phone; answers the phone and leaves the visitor logged out. */
async function signUpWithPhonePasskey(page: Page, email: string) {
  // the device has a platform authenticator (so passkeys are offered), but the phone creates this one
  const device = await addAuthenticator(page);
  const phone = await addAuthenticator(page, { transport: 'cable' });
  const view = await startSignUpByEmail(page, email, { url: '/?project=pro-9#register' });
  await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email)).code!);
  await device.remove();
  await view.getByRole('button', { name: 'Create passkey' }).click();
  await view.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  expect(await phone.credentials()).toHaveLength(1);
  await logOutOnAccountPage(page, 'pro-9');
  return phone;
}

/** Logs in with the phone's passkey on a device that has its own platform authenticator. */
async function logInWithPhone(page: Page, email: string, phone: Awaited<ReturnType<typeof addAuthenticator>>) {
  const device = await addAuthenticator(page);
  await phone.setPresence(false);
  await page.goto('/login.html?project=pro-9');
  // the plain log-in, where the address is typed (this browser logged in: its account is offered first)
  await useAnotherAccount(page);
  const view = widget(page);
  await view.getByRole('textbox', { name: 'Email address' }).fill(email);
  // the passkey log-in starts by itself after the address; the phone answers it, not the autofill
  await answerPasskeyLogin(page, phone);
  await view.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(view.getByRole('heading', { name: 'Create a passkey on this device' })).toBeVisible();
  return device;
}

test.describe('pro-9 passkey for this device after a log-in with a phone', () => {
  // Chromium before 156 (Debian's, installed from stale package lists) refuses a virtual authenticator
  // on the hybrid transport ("The transport is not valid"): these tests need that feature, so they ask
  // the browser first and say what they skip instead of failing on an old Chromium
  test.beforeEach(async ({ page, browser }) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const refusal = await cdp
      .send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'cable', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      })
      .then(({ authenticatorId }) => cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId }).then(() => undefined))
      .catch((error: Error) => error.message);
    await cdp.detach();
    test.skip(
      !!refusal && /transport/i.test(refusal),
      `Chromium ${browser.version()} has no virtual hybrid authenticator (${refusal}); run "apt-get update" and install Debian's current chromium`,
    );
  });

  test('creates the passkey of this device', async ({ page }) => {
    const email = uniqueEmail('after-hybrid');
    const phone = await signUpWithPhonePasskey(page, email);
    const device = await logInWithPhone(page, email, phone);
    await phone.remove();
    await widget(page).getByRole('button', { name: 'Create passkey' }).click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    expect(await device.credentials()).toHaveLength(1);
    await page.goto('/account.html?project=pro-9');
    await expect(page.locator('#widget').getByRole('listitem')).toHaveCount(2);
  });

  test('"Maybe later" logs in without one', async ({ page }) => {
    const email = uniqueEmail('after-hybrid-later');
    const phone = await signUpWithPhonePasskey(page, email);
    const device = await logInWithPhone(page, email, phone);
    await widget(page).getByRole('button', { name: 'Maybe later' }).click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    expect(await device.credentials()).toHaveLength(0);
  });
});
