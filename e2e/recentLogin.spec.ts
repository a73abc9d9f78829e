import type { Page } from '@playwright/test';
import { addAuthenticator, createProject, expect, latestMessage, signUpByEmailCode, test, uniqueEmail } from './fixtures';

// What cannot be undone needs a recent log-in (server README, "Recent log-in"). These projects allow
// 1 second, so the account page is past the window as soon as it shows: the widget asks "Confirm it's
// you" in place, and repeats the action once the proof is accepted.

const WINDOW_SECONDS = 1;
/** past the project's window, whatever the page took to load */
const pastWindow = () => new Promise((resolve) => setTimeout(resolve, WINDOW_SECONDS * 1000 + 200));

async function accountPage(page: Page, projectId: string, email: string) {
  await page.goto(`/account.html?project=${projectId}`);
  await expect(page.locator('#user-details').getByText(email)).toBeVisible();
  await pastWindow();
}

test.describe('recent log-in', () => {
  test('deleting the account after the window asks for a code; cancel keeps everything, the code deletes it', async ({ page }) => {
    const projectId = await createProject({ recentLoginSeconds: WINDOW_SECONDS, passkeys: false });
    const email = uniqueEmail('recent');
    await signUpByEmailCode(page, email, { url: `/signup.html?project=${projectId}` });
    const signUpCode = (await latestMessage(email)).id;
    await accountPage(page, projectId, email);
    const details = page.locator('#user-details');
    const deleteButton = details.getByRole('button', { name: 'Delete account' });

    await deleteButton.click();
    await details.getByRole('dialog', { name: 'Delete your account?' }).getByRole('button', { name: 'Delete account' }).click();
    const confirm = details.getByRole('dialog', { name: "Confirm it's you" });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText("For your security, please confirm it's you before you continue.");
    await expect(confirm.getByRole('button', { name: 'Use passkey' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expect(deleteButton).toBeFocused();
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(details.getByText(email)).toBeVisible();
    await expect(details.getByRole('alert')).toHaveCount(0);

    await deleteButton.click();
    await details.getByRole('dialog', { name: 'Delete your account?' }).getByRole('button', { name: 'Delete account' }).click();
    await confirm.getByRole('button', { name: `Send a code to ${email}` }).click();
    await expect(confirm.getByText(`Enter the code we sent to ${email}.`)).toBeVisible();
    const digit = confirm.getByRole('textbox', { name: 'Digit 1 of 6' });
    await expect(digit).toBeFocused();
    await digit.fill((await latestMessage(email, signUpCode)).code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    await expect(details.getByText('Please log in to see this.')).toBeVisible();

    await page.goto(`/login.html?project=${projectId}`);
    const login = page.locator('#widget');
    await login.getByRole('textbox', { name: 'Email address' }).fill(email);
    await login.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(login.getByText("Couldn't find your account.")).toBeVisible();
  });

  test('deleting the last passkey after the window asks for the passkey, in German too', async ({ page }) => {
    await addAuthenticator(page);
    const projectId = await createProject({ recentLoginSeconds: WINDOW_SECONDS });
    const email = uniqueEmail('recent-passkey');
    await signUpByEmailCode(page, email, { url: `/signup.html?project=${projectId}`, passkey: true });
    await page.goto(`/account.html?project=${projectId}&lang=de`);
    const list = page.locator('#widget');
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await pastWindow();

    await list.getByRole('listitem').getByRole('button').click();
    await list.getByRole('dialog').getByRole('button', { name: 'Löschen' }).click();
    const confirm = list.getByRole('dialog', { name: 'Bestätige, dass du es bist' });
    await expect(confirm.getByRole('button', { name: `Code an ${email} senden` })).toBeVisible();
    await confirm.getByRole('button', { name: 'Passkey verwenden' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(list.getByRole('listitem')).toHaveCount(0);
    // the details view of the same page was not asked
    await expect(page.locator('#user-details').getByRole('dialog')).toHaveCount(0);
  });
});
