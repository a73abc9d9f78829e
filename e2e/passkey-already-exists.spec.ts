import { addAuthenticator, expect, latestMessage, signUpByEmailCode, test, uniqueEmail, widget } from './fixtures';

// pro-1: the passkey step of a process, on a device that already holds a passkey of the account. Chromium
// then refuses to create another one (excludeCredentials, InvalidStateError) and the widget shows the
// passkey-already-exists dialog; its confirm completes the process.
//
// How the device comes to hold it, honestly: the Frontend API lists the account's passkeys in
// excludeCredentials only when it knows the account, that is for the passkey step after a log-in (a
// sign-up's account has no passkeys yet, so its step excludes none and cannot meet this answer). That
// step is offered when the account has no passkey after the e-mail code; while it waits, the visitor
// creates one on the account page of the same tab (the same virtual authenticator), comes back to the
// process (kept in storage) and asks for a passkey again. The widget's code is the same for both steps.

test('a passkey the device already holds: the passkey-already-exists dialog, then the process completes', async ({ page }) => {
  const device = await addAuthenticator(page);
  const email = uniqueEmail('passkey-exists');
  await signUpByEmailCode(page, email, { passkey: false });
  expect(await device.credentials()).toHaveLength(0);

  // log in again by e-mail code (the sign-up's session stays for the account page): the passkey step.
  // This browser signed up by code, so log-in offers the account with that way first
  await page.goto('/#login');
  const view = widget(page);
  const before = (await latestMessage(email)).id;
  await view.getByRole('button', { name: 'Email me a code' }).click();
  await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email, before)).code!);
  await expect(view.getByRole('button', { name: 'Create passkey' })).toBeVisible();

  // meanwhile, a passkey for this account on this device, from the account page
  await page.goto('/account.html');
  const passkeys = page.locator('#widget ul.cb-passkeys > li');
  await page.locator('#widget').getByRole('button', { name: 'Create a passkey' }).click();
  await expect(passkeys).toHaveCount(1);
  expect(await device.credentials()).toHaveLength(1);

  // back to the waiting process: the server now excludes that passkey, and the device holds it
  await page.goto('/');
  await view.getByRole('button', { name: 'Create passkey' }).click();
  const dialog = view.getByRole('dialog', { name: 'Passkey already exists' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('There is already a passkey for this account on this device.');
  await expect(page.locator('#host-events')).not.toContainText('onLoggedIn');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page.locator('#host-events')).toContainText('onLoggedIn');
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  await expect(dialog).toHaveCount(0);
  expect(await device.credentials()).toHaveLength(1);
  await page.goto('/account.html');
  await expect(passkeys).toHaveCount(1);
});
