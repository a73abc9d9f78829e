import { addAuthenticator, expect, latestMessage, test, widget } from './fixtures';

// pro-3: phone numbers verified by SMS code.

const uniqueNumber = () => String(Math.floor(1000000 + Math.random() * 8999999));

test.describe('[spec 1.identifiers] pro-3 sign-up with a phone number', () => {
  test('[spec 1.auth-sms-otp] picking a country, typing a number, a passkey, then the SMS code', async ({ page }) => {
    const authenticator = await addAuthenticator(page);
    await page.goto('/?project=pro-3#register');
    const view = widget(page);
    const toggle = view.getByRole('button', { name: /Country: United States/ });
    // every country has its flag (the regional-indicator pair of its code), hidden from screen readers
    await expect(toggle.locator('[aria-hidden="true"]').first()).toHaveText('\u{1F1FA}\u{1F1F8}');
    await toggle.click();
    await view.getByRole('combobox', { name: 'Search country or code' }).fill('Germ');
    const germany = view.getByRole('option', { name: /Germany/ });
    await expect(germany).toContainText('\u{1F1E9}\u{1F1EA}');
    await expect(germany).toHaveAccessibleName(/^Germany/);
    await germany.click();
    await expect(view.getByRole('button', { name: /Country: Germany/ })).toContainText('+49');
    await expect(view.getByRole('button', { name: /Country: Germany/ })).toContainText('\u{1F1E9}\u{1F1EA}');
    const national = `151${uniqueNumber()}1`;
    await view.getByRole('textbox', { name: 'Phone number' }).fill(national);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByRole('heading', { name: 'Create your account with a passkey' })).toBeVisible();
    await expect(view.getByRole('button', { name: 'Send SMS code instead' })).toBeVisible();
    await view.getByRole('button', { name: 'Create passkey' }).click();
    await expect(view.getByRole('heading', { name: 'Verify your phone number' })).toBeVisible();
    const message = await latestMessage(`+49${national}`);
    expect(message.channel).toBe('sms');
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill(message.code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await expect(page.locator('#host-user')).toContainText(`+49${national}`);
    expect(await authenticator.credentials()).toHaveLength(1);
  });

  test('pasting an international number sets the country; the SMS fallback skips the passkey', async ({ page }) => {
    await addAuthenticator(page);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/?project=pro-3#register');
    const view = widget(page);
    await expect(view.getByRole('button', { name: /Country: United States/ })).toBeVisible();
    const number = `+44 20 7946 0${uniqueNumber().slice(0, 3)}`;
    const field = view.getByRole('textbox', { name: 'Phone number' });
    await page.evaluate((text) => navigator.clipboard.writeText(text), number);
    await field.focus();
    await page.keyboard.press('ControlOrMeta+V');
    await expect(view.getByRole('button', { name: /Country: United Kingdom/ })).toContainText('+44');
    // the country code went to the picker, the rest stays in the field
    await expect(field).toHaveValue(number.replace(/^\+44 /, ''));
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await view.getByRole('button', { name: 'Send SMS code instead' }).click();
    await expect(view.getByRole('heading', { name: 'Verify your phone number' })).toBeVisible();
    const e164 = number.replace(/\s/g, '');
    const message = await latestMessage(e164);
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill(message.code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  });

  test('a number too short for its country is refused before any call', async ({ page }) => {
    const signUpCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/v2/auth/signup/init')) signUpCalls.push(request.method());
    });
    await page.goto('/?project=pro-3#register');
    const view = widget(page);
    await view.getByRole('textbox', { name: 'Phone number' }).fill('20155');
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText('This phone number is too short.')).toBeVisible();
    expect(signUpCalls).toEqual([]);
  });

  test('[spec 4.phone-edit] the phone number can be changed on the code screen', async ({ page }) => {
    await page.goto('/?project=pro-3#register');
    const view = widget(page);
    const first = `20155${uniqueNumber().slice(0, 5)}`;
    await view.getByRole('textbox', { name: 'Phone number' }).fill(first);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByRole('heading', { name: 'Verify your phone number' })).toBeVisible();
    await view.getByRole('button', { name: 'Change phone number' }).click();
    const second = `20255${uniqueNumber().slice(0, 5)}`;
    await view.getByRole('textbox', { name: 'Phone number' }).fill(second);
    await view.getByRole('button', { name: 'Send SMS code' }).click();
    await expect(view.getByRole('heading', { name: 'Verify your phone number' })).toBeVisible();
    const message = await latestMessage(`+1${second}`);
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill(message.code!);
    await expect(page.locator('#host-user')).toContainText(`+1${second}`);
  });
});
