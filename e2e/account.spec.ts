import type { Page } from '@playwright/test';
import { expect, latestMessage, signUpByEmailCode, test, uniqueEmail } from './fixtures';

// Account management in the user details view (demo/account.html, pro-1): the name, an added e-mail
// address verified by code, the primary address, removing one, and deleting the account.

async function signUp(page: Page, email: string) {
  await signUpByEmailCode(page, email, { fullName: 'Ada Lovelace' });
  await page.goto('/account.html');
  await expect(page.locator('#user-details').getByText(email)).toBeVisible();
}

const details = (page: Page) => page.locator('#user-details');

async function addVerifiedEmail(page: Page, email: string) {
  const view = details(page);
  await view.getByRole('button', { name: 'Add email address' }).click();
  await view.getByRole('textbox', { name: 'Email address' }).fill(email);
  await view.getByRole('button', { name: 'Save' }).click();
  const row = view.getByRole('listitem').filter({ hasText: email });
  await expect(row.getByText('Pending')).toBeVisible();
  await row.getByRole('button', { name: `Verify: ${email}` }).click();
  await expect(view.getByText(`Enter the code we sent to ${email}.`)).toBeVisible();
  await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email)).code!);
  await expect(row.getByText('Verified')).toBeVisible();
  await expect(row).toBeFocused();
}

test.describe('account management', () => {
  test('changes the full name; an empty one is refused and the field keeps what was typed', async ({ page }) => {
    await signUp(page, uniqueEmail('name'));
    const view = details(page);
    await view.getByRole('button', { name: 'Edit: Name' }).click();
    const field = view.getByRole('textbox', { name: 'Full name' });
    await expect(field).toBeFocused();
    await expect(field).toHaveValue('Ada Lovelace');
    await field.fill('   ');
    await view.getByRole('button', { name: 'Save' }).click();
    await expect(view.getByRole('alert')).toHaveText('Please enter a valid name.');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await field.fill('Grace Hopper');
    await view.getByRole('button', { name: 'Save' }).click();
    await expect(view.getByText('Grace Hopper')).toBeVisible();
    await expect(view.getByRole('button', { name: 'Edit: Name' })).toBeFocused();
    // the host sees the new name in the refreshed session
    await expect(page.locator('#host-user')).toContainText('"name": "Grace Hopper"');
    await page.reload();
    await expect(details(page).getByText('Grace Hopper')).toBeVisible();
  });

  test('adds an e-mail address and verifies it with a code; a taken address and a wrong code are named', async ({ page }) => {
    const taken = uniqueEmail('taken');
    await signUp(page, taken);
    await page.evaluate(() => Corbado.logout());
    const email = uniqueEmail('owner');
    await signUp(page, email);
    const view = details(page);
    await view.getByRole('button', { name: 'Add email address' }).click();
    const field = view.getByRole('textbox', { name: 'Email address' });
    await field.fill('no-address');
    await view.getByRole('button', { name: 'Save' }).click();
    await expect(view.getByRole('alert')).toHaveText('Please enter a valid email address.');
    await field.fill(taken);
    await view.getByRole('button', { name: 'Save' }).click();
    await expect(view.getByRole('alert')).toHaveText('This email address is already taken. Please try another one or log in.');
    await expect(field).toHaveValue(taken);

    const second = uniqueEmail('second');
    await field.fill(second);
    await view.getByRole('button', { name: 'Save' }).click();
    const row = view.getByRole('listitem').filter({ hasText: second });
    await expect(row.getByText('Pending')).toBeVisible();
    await row.getByRole('button', { name: `Verify: ${second}` }).click();
    const code = (await latestMessage(second)).code!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill(wrong);
    await expect(view.getByText('The code is invalid or expired')).toBeVisible();
    await expect(view.getByRole('textbox', { name: 'Digit 1 of 6' })).toBeFocused();
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill(code);
    await expect(row.getByText('Verified')).toBeVisible();
    await expect(view.getByRole('button', { name: 'Add email address' })).toHaveCount(0); // two per user
  });

  test('makes the new address primary, then removes the old one after a confirmation', async ({ page }) => {
    const email = uniqueEmail('old');
    await signUp(page, email);
    const second = uniqueEmail('new');
    await addVerifiedEmail(page, second);
    const view = details(page);
    await view.getByRole('button', { name: `Make primary: ${second}` }).click();
    const newRow = view.getByRole('listitem').filter({ hasText: second });
    await expect(newRow.getByText('Primary')).toBeVisible();
    await expect(view.getByRole('listitem').first()).toContainText(second);
    await expect(page.locator('#host-user')).toContainText(`"email": "${second}"`);

    const remove = view.getByRole('button', { name: `Remove: ${email}` });
    await remove.click();
    const dialog = view.getByRole('dialog', { name: `Remove ${email}?` });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(remove).toBeFocused();
    await remove.click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(view.getByRole('listitem').filter({ hasText: email })).toHaveCount(0);
    await expect(view.getByRole('heading', { name: 'Email addresses' })).toBeFocused();
    // the last verified address the user logs in with cannot be removed
    await expect(view.getByRole('button', { name: `Remove: ${second}` })).toHaveCount(0);
  });

  test('deletes the account after a confirmation; it cannot log in any more', async ({ page }) => {
    const email = uniqueEmail('delete');
    await signUp(page, email);
    const view = details(page);
    await view.getByRole('button', { name: 'Delete account' }).click();
    const dialog = view.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(view.getByRole('button', { name: 'Delete account' })).toBeFocused();
    await view.getByRole('button', { name: 'Delete account' }).click();
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    await expect(view.getByText('Please log in to see this.')).toBeVisible();

    await page.goto('/login.html');
    const login = page.locator('#widget');
    await login.getByRole('textbox', { name: 'Email address' }).fill(email);
    await login.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(login.getByText("Couldn't find your account.")).toBeVisible();
  });
});
