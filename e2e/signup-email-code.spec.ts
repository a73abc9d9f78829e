import { addAuthenticator, expect, latestMessage, startSignUpByEmail, test, uniqueEmail, widget } from './fixtures';
import type { Page } from '@playwright/test';

// pro-1: e-mail verified by a one-time code, then a passkey that may be skipped ("Maybe later").

async function startSignup(page: Page, email: string) {
  const view = await startSignUpByEmail(page, email, { fullName: 'Ada Lovelace' });
  await expect(view.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
  await expect(view.getByText(email, { exact: true })).toBeVisible();
}

async function enterCode(page: Page, code: string) {
  await widget(page).getByRole('textbox', { name: 'Digit 1 of 6' }).fill(code);
}

async function expectLoggedIn(page: Page, email: string) {
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  await expect(page.locator('#host-user')).toContainText(email);
  await expect(page.locator('#host-events')).toContainText('onLoggedIn');
  await expect(widget(page).getByRole('heading')).toHaveCount(0);
}

test.describe('[spec 1.identifiers] pro-1 sign-up with an e-mail code', () => {
  test('[spec 4.signup-path] [spec 4.appended-continue] [spec 6.anonymous] sign up with an e-mail code and a passkey', async ({ page }) => {
    const authenticator = await addAuthenticator(page);
    const email = uniqueEmail('code-passkey');
    await startSignup(page, email);
    const message = await latestMessage(email);
    expect(message.channel).toBe('email');
    expect(message.code).toMatch(/^\d{6}$/);
    await enterCode(page, message.code!);
    const view = widget(page);
    await expect(view.getByRole('heading', { name: 'Create your account with a passkey' })).toBeVisible();
    await view.getByRole('button', { name: 'Create passkey' }).click();
    await expect(view.getByRole('heading', { name: 'Passkey created' })).toBeVisible();
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectLoggedIn(page, email);
    expect(await authenticator.credentials()).toHaveLength(1);
    const stored = await page.evaluate(() => ({
      short: localStorage.getItem('cbo_short_session'),
      long: localStorage.getItem('cbo_long_session'),
      process: localStorage.getItem('cbo_auth_process-pro-1'),
    }));
    expect(stored.short).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored.long).toBeTruthy();
    expect(stored.process).toBeNull();
    expect(await page.evaluate(() => Corbado.user?.name)).toBe('Ada Lovelace');
  });

  test('a name with a right-to-left override is refused on the name field, keeping what was typed', async ({ page }) => {
    const email = uniqueEmail('rlo-name');
    const typed = 'Ada \u202Eecalevol';
    const view = await startSignUpByEmail(page, email, { fullName: typed });
    await expect(view.getByText('This name contains invisible or control characters. Please type it again.')).toBeVisible();
    await expect(view.getByRole('textbox', { name: 'Full name' })).toHaveValue(typed);
    await expect(view.getByRole('textbox', { name: 'Email address' })).toHaveValue(email);
    await view.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
  });

  test('[spec 4.append-retry] a cancelled passkey can be retried', async ({ page }) => {
    const authenticator = await addAuthenticator(page);
    const email = uniqueEmail('cancel');
    await startSignup(page, email);
    await enterCode(page, (await latestMessage(email)).code!);
    const view = widget(page);
    await authenticator.setUserVerified(false);
    await view.getByRole('button', { name: 'Create passkey' }).click();
    await expect(view.getByRole('heading', { name: 'No passkey was created' })).toBeVisible();
    await expect(view.getByText('The passkey request was cancelled or timed out.')).toBeVisible();
    await authenticator.setUserVerified(true);
    await view.getByRole('button', { name: 'Try again' }).click();
    await expect(view.getByRole('heading', { name: 'Passkey created' })).toBeVisible();
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expectLoggedIn(page, email);
  });

  test('[spec 4.append-skip] "Maybe later" skips the passkey where the step is skippable', async ({ page }) => {
    const authenticator = await addAuthenticator(page);
    const email = uniqueEmail('later');
    await startSignup(page, email);
    await enterCode(page, (await latestMessage(email)).code!);
    await widget(page).getByRole('button', { name: 'Maybe later' }).click();
    await expectLoggedIn(page, email);
    expect(await authenticator.credentials()).toHaveLength(0);
  });

  test('[spec 3.verify-block-data] a wrong code shows the error, clears the cells, and the right one goes on', async ({ page }) => {
    await addAuthenticator(page);
    const email = uniqueEmail('wrong');
    await startSignup(page, email);
    const code = (await latestMessage(email)).code!;
    const wrong = code.replace(/^./, (d) => String((Number(d) + 1) % 10));
    await enterCode(page, wrong);
    const view = widget(page);
    await expect(view.getByText('The code is invalid or expired')).toBeVisible();
    await expect(view.getByRole('textbox', { name: 'Digit 1 of 6' })).toHaveValue('');
    await expect(view.getByRole('textbox', { name: 'Digit 1 of 6' })).toBeFocused();
    await enterCode(page, code);
    await expect(view.getByRole('heading', { name: 'Create your account with a passkey' })).toBeVisible();
  });

  test('[spec 4.email-edit] the e-mail can be changed on the code screen', async ({ page }) => {
    await addAuthenticator(page);
    const first = uniqueEmail('first');
    const second = uniqueEmail('second');
    await startSignup(page, first);
    const view = widget(page);
    await view.getByRole('button', { name: 'Change email address' }).click();
    await expect(view.getByRole('heading', { name: 'Change email address' })).toBeVisible();
    const field = view.getByRole('textbox', { name: 'Email address' });
    await expect(field).toHaveValue(first);
    await field.fill('not-an-address');
    await view.getByRole('button', { name: 'Send code' }).click();
    await expect(view.getByText('Please enter a valid email address.')).toBeVisible();
    await field.fill(second);
    await view.getByRole('button', { name: 'Send code' }).click();
    await expect(view.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await expect(view.getByText(second, { exact: true })).toBeVisible();
    await enterCode(page, (await latestMessage(second)).code!);
    await view.getByRole('button', { name: 'Maybe later' }).click();
    await expectLoggedIn(page, second);
  });

  test('the sign-up form checks its fields and keeps what was entered', async ({ page }) => {
    await page.goto('/#register');
    const view = widget(page);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText('Please enter a valid name.')).toBeVisible();
    await expect(view.getByText('Please enter an e-mail address.')).toBeVisible();
    await view.getByRole('textbox', { name: 'Full name' }).fill('Grace Hopper');
    await view.getByRole('textbox', { name: 'Email address' }).fill('grace@');
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText('Please enter a valid email address.')).toBeVisible();
    await expect(view.getByRole('textbox', { name: 'Full name' })).toHaveValue('Grace Hopper');
  });

  test('[spec 3.signup-init-data] an address that is taken is refused by the server with a translated message', async ({ page }) => {
    const email = uniqueEmail('taken');
    await startSignup(page, email);
    await enterCode(page, (await latestMessage(email)).code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    await page.evaluate(() => Corbado.logout());
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
    await page.goto('/#register');
    const view = widget(page);
    await view.getByRole('textbox', { name: 'Full name' }).fill('Someone Else');
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText('This email address is already taken. Please try another one or log in.')).toBeVisible();
    await expect(view.getByRole('textbox', { name: 'Email address' })).toHaveValue(email);
    await expect(view.getByRole('textbox', { name: 'Full name' })).toHaveValue('Someone Else');
  });

  test('a browser that takes over a second to say it has a platform authenticator (a loaded device): the visitor who submitted meanwhile is still offered a passkey', async ({ page }) => {
    // the answer that contradicts Linux's guess (none) comes 1.2 s later than the browser gives it: past the
    // 1 s the widget once waited, and after the form was sent. CI saw this on a loaded machine, where
    // sign-ups then went on without the passkey step.
    await addAuthenticator(page);
    await page.addInitScript(() => {
      const ask = PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable.bind(PublicKeyCredential);
      PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable = () =>
        ask().then((available) => new Promise<boolean>((resolve) => setTimeout(() => resolve(available), 1200)));
    });
    const email = uniqueEmail('slow-answer');
    await startSignup(page, email);
    await enterCode(page, (await latestMessage(email)).code!);
    await expect(widget(page).getByRole('heading', { name: 'Create your account with a passkey' })).toBeVisible();
  });

  test('without a platform authenticator the flow skips the passkey step', async ({ page }) => {
    const email = uniqueEmail('no-passkey');
    await startSignup(page, email);
    await enterCode(page, (await latestMessage(email)).code!);
    await expectLoggedIn(page, email);
  });

  test('in German the whole flow speaks German', async ({ page }) => {
    await addAuthenticator(page);
    const email = uniqueEmail('german');
    await page.goto('/?lang=de#register');
    const view = widget(page);
    await expect(view.getByRole('heading', { name: 'Konto erstellen' })).toBeVisible();
    await view.getByRole('button', { name: 'Weiter', exact: true }).click();
    await expect(view.getByText('Bitte gib einen gültigen Namen ein.')).toBeVisible();
    await view.getByRole('textbox', { name: 'Vollständiger Name' }).fill('Ada Lovelace');
    await view.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill(email);
    await view.getByRole('button', { name: 'Weiter', exact: true }).click();

    await expect(view.getByRole('heading', { name: 'Bestätige deine E-Mail-Adresse' })).toBeVisible();
    await expect(view.getByText('Gib den 6-stelligen Code ein, den wir gerade an diese Adresse gesendet haben:')).toBeVisible();
    await expect(view.getByRole('button', { name: 'E-Mail-Adresse ändern' })).toBeVisible();
    const code = (await latestMessage(email)).code!;
    const firstCell = view.getByRole('textbox', { name: 'Ziffer 1 von 6' });
    await firstCell.fill(code.replace(/^./, (d) => String((Number(d) + 1) % 10)));
    await expect(view.getByText('Der Code ist ungültig oder abgelaufen')).toBeVisible();
    await firstCell.fill(code);

    await expect(view.getByRole('heading', { name: 'Erstelle dein Konto mit einem Passkey' })).toBeVisible();
    await expect(view.getByRole('button', { name: 'Passkey erstellen' })).toBeVisible();
    await view.getByRole('button', { name: 'Vielleicht später' }).click();
    await expectLoggedIn(page, email);
  });
});

test.describe('back navigation during sign-up', () => {
  test('[spec 2.hash-abort-confirmation] [spec 2.confirm-abort] [spec 4.abort-signup-asks] [spec 4.abort-forward] [spec 4.abort-reset] asks first: completing returns to the step, starting over resets the process', async ({ page }) => {
    const email = uniqueEmail('abort');
    await startSignup(page, email);
    await expect(page).toHaveURL(/#email-verify$/);
    const before = await page.evaluate(() => JSON.parse(localStorage.getItem('cbo_auth_process-pro-1')!).id as string);
    const view = widget(page);
    await page.goBack();
    await expect(view.getByRole('heading', { name: 'Abort Signup?' })).toBeVisible();
    await expect(view.getByText('Going back will restart the signup process and your current progress will be lost.')).toBeVisible();
    await view.getByRole('button', { name: 'Yes, complete the signup' }).click();
    await expect(view.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await expect(page).toHaveURL(/#email-verify$/);
    await page.goBack();
    await view.getByRole('button', { name: 'No, start over' }).click();
    await expect(view.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(view.getByRole('textbox', { name: 'Email address' })).toHaveValue('');
    const after = await page.evaluate(() => JSON.parse(localStorage.getItem('cbo_auth_process-pro-1')!).id as string);
    expect(after).not.toBe(before);
  });
});
