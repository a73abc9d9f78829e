import { expect, test } from '@playwright/test';
import { addPasskeyDevice, isLoggedIn, logInByEmailCode, logOut, resetState, signUpByEmailCode } from './kit/corbadoKit';

// The README's "Testing your site" example, run: a QA engineer's test of a customer's page
// (demo/shop.html, not a demo page) that drives the widget through the QA kit alone. The page is the
// shop's; the widget is found through the element the shop mounts it into.

const apiUrl = process.env.E2E_API_URL!;
const address = (tag: string) => `shop-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

test('a customer signs up, signs out and signs in again by e-mail code', async ({ page }) => {
  const email = address('code');
  await page.goto('/shop.html');
  const login = page.locator('#login');

  await signUpByEmailCode(login, email, { apiUrl, fullName: 'Grace Hopper' });
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

  await logOut(page);
  await expect(page.getByRole('heading', { name: 'Sign in to check out' })).toBeVisible();

  await logInByEmailCode(login, email, { apiUrl });
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

  // reset: the visitor is forgotten, the shop's own basket stays
  await resetState(page);
  await expect(login.getByRole('heading', { name: 'Create your account' }).or(login.getByRole('heading', { name: 'Log in' }))).toBeVisible();
  expect(await isLoggedIn(page)).toBe(false);
  expect(await page.evaluate(() => [localStorage.getItem('cbo_long_session'), localStorage.getItem('fernfield-basket')])).toEqual([
    null,
    '["darjeeling","sencha"]',
  ]);
});

test('a customer with a passkey device creates a passkey at sign-up and signs in by code', async ({ page }) => {
  const device = await addPasskeyDevice(page);
  const email = address('passkey');
  await page.goto('/shop.html');
  const login = page.locator('#login');

  await signUpByEmailCode(login, email, { apiUrl, passkey: true });
  const credentials = await device.credentials();
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.rpId).toBe('localhost');

  // the device refuses from now on, as a customer cancelling the prompt: the log-in screen the shop shows
  // after signing out offers the passkey in the autofill, which would otherwise sign the customer in
  // again at once, and the passkey log-in that starts after the address fails, so the code is offered
  await device.setUserVerified(false);
  await logOut(page);
  await logInByEmailCode(login, email, { apiUrl });
  await expect(page.getByText(`Signed in as ${email}`)).toBeVisible();

  // a reset of the site's storage too, without the reload: nothing of this origin is left; the reload
  // then finds the customer forgotten, and the passkey still on the device
  await page.evaluate(() => sessionStorage.setItem('fernfield-checkout-step', 'address'));
  await resetState(page, { siteStorage: true, reload: false });
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
  expect(await page.context().cookies()).toEqual([]);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to check out' })).toBeVisible();
  expect(await isLoggedIn(page)).toBe(false);
  expect(await device.credentials()).toHaveLength(1);
});
