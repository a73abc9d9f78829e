import { expect, test, uniqueEmail, widget } from './fixtures';

// pro-1: social sign-in through the local OAuth simulator, which stands in for Google on the API's
// origin. The browser really leaves the demo page, consents on the simulator and comes back.

test.describe('pro-1 social sign-in', () => {
  test('[spec 1.auth-social] [spec 2.social-redirect] signs up with Google and comes back logged in', async ({ page }) => {
    const email = uniqueEmail('social-google');
    await page.goto('/?project=pro-1');
    await widget(page).getByRole('button', { name: 'Continue with Google' }).click();

    await page.waitForURL(/\/_dev\/oauth\/google\/authorize\?/);
    await expect(page.getByText('Local simulator')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue('ada.lovelace@example.com');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Full name').fill('Grace Social');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();

    // back on the page the widget was on (no query: the demo remembers the project)
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(page.locator('#host-user')).toContainText(email);
    await expect(page.locator('#project-id')).toHaveText('pro-1');
    await expect(page.locator('#host-events')).toContainText('onLoggedIn');
  });

  test('cancelling at the provider shows an error in the widget', async ({ page }) => {
    await page.goto('/?project=pro-1');
    await widget(page).getByRole('button', { name: 'Continue with Google' }).click();
    await page.waitForURL(/\/_dev\/oauth\/google\/authorize\?/);
    await page.getByRole('button', { name: 'Cancel' }).click();

    const view = widget(page);
    await expect(view.getByText('The sign-in with the provider was cancelled.')).toBeVisible();
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    // the buttons stay usable for another attempt
    await expect(view.getByRole('button', { name: 'Continue with Google' })).toBeEnabled();
  });
});

test.describe('pro-5 social log-in without public sign-up', () => {
  test('[spec 2.social-verify] an unknown account is refused on the social-verify screen; Back returns to log-in', async ({ page }) => {
    await page.goto('/?project=pro-5');
    await widget(page).getByRole('button', { name: 'Continue with Google' }).click();
    await page.waitForURL(/\/_dev\/oauth\/google\/authorize\?/);
    await page.getByLabel('Email').fill(uniqueEmail('social-refused'));
    await page.getByRole('button', { name: 'Continue', exact: true }).click();

    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
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
