import { addAuthenticator, expect, latestMessage, test, uniqueEmail, widget } from './fixtures';

const uniqueName = (tag: string) => `${tag}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test.describe('[spec 1.identifiers] pro-4 sign-up with a username and an e-mail', () => {
  test('invalid usernames are refused with the spec message; a valid one signs up', async ({ page }) => {
    await addAuthenticator(page);
    await page.goto('/?project=pro-4#register');
    const view = widget(page);
    const username = view.getByRole('textbox', { name: 'Username' });
    const email = uniqueEmail('user');
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    const message = 'Please enter a valid username: 4 to 32 characters, only letters, digits, "-" and "_".';
    for (const bad of ['abc', 'has space', 'x'.repeat(33), 'bad!char']) {
      await username.fill(bad);
      await view.getByRole('button', { name: 'Continue', exact: true }).click();
      await expect(view.getByText(message)).toBeVisible();
    }
    await username.fill('');
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText('Please enter a username.')).toBeVisible();
    const name = uniqueName('ada');
    await username.fill(name);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByRole('heading', { name: 'Create your account with a passkey' })).toBeVisible();
    await view.getByRole('button', { name: 'Create passkey' }).click();
    await expect(view.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email)).code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(page.locator('#host-user')).toContainText(email);
  });
});

test.describe('pro-7 missing fields', () => {
  test('[spec 2.missing-fields] [spec 4.signup-path] after the e-mail code, the missing username and phone number are asked for', async ({ page }) => {
    await page.goto('/?project=pro-7#register');
    const view = widget(page);
    const email = uniqueEmail('missing');
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    await expect(view.getByRole('textbox', { name: 'Username' })).toHaveCount(0);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email)).code!);
    await expect(view.getByRole('heading', { name: 'Almost done' })).toBeVisible();
    await expect(view.getByText('Choose a username for your account.')).toBeVisible();
    await view.getByRole('textbox', { name: 'Username' }).fill('no');
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText('Please enter a valid username', { exact: false })).toBeVisible();
    await view.getByRole('textbox', { name: 'Username' }).fill(uniqueName('grace'));
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText('Add your phone number to your account.')).toBeVisible();
    await view.getByRole('textbox', { name: 'Phone number' }).fill(`20155${String(Date.now()).slice(-5)}`);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(page.locator('#host-user')).toContainText(email);
  });
});
