import type { Locator, Page } from '@playwright/test';
import { addAuthenticator, createProject, expect, latestMessage, signInElsewhere, signUpByEmailCode, test, uniqueEmail, widget } from './fixtures';

// Every view with the keyboard alone: after each screen change the focus is on the new screen's
// first field or, without one, on its heading. (page.goto and the host's own logout are the host
// page's doing, not the visitor's.)

/** Presses Tab until the element has the focus (at most 12 times), as a keyboard user would. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  for (let presses = 0; presses < 12; presses++) {
    await page.keyboard.press(key);
    if (await target.evaluate((element) => element.getRootNode() instanceof ShadowRoot && (element.getRootNode() as ShadowRoot).activeElement === element)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

const heading = (page: Page, name: string) => widget(page).getByRole('heading', { name, exact: true });
const textbox = (page: Page, name: string) => widget(page).getByRole('textbox', { name, exact: true });
const button = (page: Page, name: string | RegExp) => widget(page).getByRole('button', { name, exact: typeof name === 'string' });
const firstCell = (page: Page) => textbox(page, 'Digit 1 of 6');
/** the polite live region at the widget's root */
const liveRegion = (page: Page) => widget(page).locator('.cb-root > [role=status]');

test.describe('keyboard only', () => {
  // each test is a whole walk (a sign-up, the passkey screens, a log-in): 30 s was not enough on a loaded machine
  test.describe.configure({ timeout: 60_000 });
  test('auth view: sign-up with a code and a passkey, the abort confirmation, then log-in', async ({ page }) => {
    const authenticator = await addAuthenticator(page);
    const email = uniqueEmail('keys-auth');
    await page.goto('/');
    await expect(textbox(page, 'Email address')).toBeFocused();
    await tabTo(page, button(page, 'Sign up'));
    await page.keyboard.press('Enter');
    await expect(textbox(page, 'Full name')).toBeFocused();

    // an invalid submit puts the focus on the first invalid field
    await page.keyboard.press('Enter');
    await expect(textbox(page, 'Full name')).toBeFocused();
    await expect(textbox(page, 'Full name')).toHaveAttribute('aria-invalid', 'true');
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Enter');
    await expect(textbox(page, 'Email address')).toBeFocused();
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');

    await expect(heading(page, 'Verify your email address')).toBeVisible();
    await expect(firstCell(page)).toBeFocused();
    await expect(liveRegion(page)).toHaveText(`Verify your email address. We sent a code to ${email}.`);
    // back in the browser: the abort confirmation takes the focus, Escape returns to the step
    await page.goBack();
    await expect(heading(page, 'Abort Signup?')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(firstCell(page)).toBeFocused();
    await page.keyboard.type((await latestMessage(email)).code!);

    await expect(heading(page, 'Create your account with a passkey')).toBeFocused();
    await expect(liveRegion(page)).toHaveText('Create your account with a passkey');
    await tabTo(page, button(page, 'What is a passkey?'));
    await page.keyboard.press('Enter');
    await expect(heading(page, 'Passkeys')).toBeFocused();
    await tabTo(page, button(page, 'Back'));
    await page.keyboard.press('Enter');
    await expect(heading(page, 'Create your account with a passkey')).toBeFocused();
    await authenticator.setUserVerified(false);
    await tabTo(page, button(page, 'Create passkey'));
    await page.keyboard.press('Enter');
    await expect(heading(page, 'No passkey was created')).toBeFocused();
    await authenticator.setUserVerified(true);
    await tabTo(page, button(page, 'Try again'));
    await page.keyboard.press('Enter');
    await expect(heading(page, 'Passkey created')).toBeFocused();
    await tabTo(page, button(page, 'Continue'));
    await page.keyboard.press('Enter');
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');

    // log-in: the host logs out; the still-mounted view starts again, offering this account first
    // (welcome back), its passkey as the main action
    await authenticator.setPresence(false);
    await page.evaluate(() => Corbado.logout());
    await expect(heading(page, 'Welcome back')).toBeFocused();
    await expect(liveRegion(page)).toHaveText('Welcome back');
    await tabTo(page, button(page, 'Log in with passkey'));
    await page.keyboard.press('Enter');
    await expect(heading(page, 'Log in with your passkey')).toBeFocused();
    // the prompt is open: the busy button says so
    await expect(button(page, 'Log in with passkey')).toHaveAttribute('aria-busy', 'true');
  });

  test('sign-up view: the country picker, the SMS fallback, editing the number', async ({ page }) => {
    await addAuthenticator(page);
    await page.goto('/signup.html?project=pro-3');
    const phone = textbox(page, 'Phone number');
    await expect(phone).toBeFocused();
    const country = button(page, /^Country: /);
    await page.keyboard.press('Shift+Tab');
    await expect(country).toBeFocused();
    await expect(country).toHaveText(/US \+1/);

    // ArrowDown opens the list on the chosen country; Home and End; typing filters; Enter picks
    await page.keyboard.press('ArrowDown');
    const search = widget(page).getByRole('combobox', { name: 'Search country or code' });
    await expect(search).toBeFocused();
    await expect(search).toHaveAttribute('aria-expanded', 'true');
    const activeOption = async () => widget(page).locator(`[id="${await search.getAttribute('aria-activedescendant')}"]`);
    await expect(await activeOption()).toHaveText(/United States/);
    await expect(await activeOption()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('End');
    await expect(search).toHaveAttribute('aria-activedescendant', (await widget(page).getByRole('option').last().getAttribute('id'))!);
    await page.keyboard.press('Home');
    await expect(search).toHaveAttribute('aria-activedescendant', (await widget(page).getByRole('option').first().getAttribute('id'))!);
    await page.keyboard.type('germ');
    await expect(await activeOption()).toHaveText(/Germany/);
    await page.keyboard.press('Enter');
    await expect(widget(page).getByRole('listbox')).toHaveCount(0);
    await expect(country).toBeFocused();
    await expect(country).toHaveText(/DE \+49/);
    // type-ahead on the button: the first letter opens the list and starts the search
    await page.keyboard.press('s');
    await expect(search).toBeFocused();
    await expect(search).toHaveValue('s');
    await page.keyboard.type('wed');
    await expect(await activeOption()).toHaveText(/Sweden/);
    await page.keyboard.press('Escape');
    await expect(country).toBeFocused();
    await expect(country).toHaveText(/DE \+49/);

    // Tab closes the list and goes on to the number; the list itself is never a tab stop
    await page.keyboard.press('ArrowDown');
    await expect(search).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(widget(page).getByRole('listbox')).toHaveCount(0);
    await expect(phone).toBeFocused();
    const national = `151${String(Date.now()).slice(-7)}1`;
    await page.keyboard.type(national);
    await page.keyboard.press('Enter');

    await expect(heading(page, 'Create your account with a passkey')).toBeFocused();
    await tabTo(page, button(page, 'Send SMS code instead'));
    await page.keyboard.press('Enter');
    await expect(heading(page, 'Verify your phone number')).toBeVisible();
    await expect(firstCell(page)).toBeFocused();
    await tabTo(page, button(page, 'Change phone number'), 'Shift+Tab');
    await page.keyboard.press('Enter');
    await expect(heading(page, 'Change phone number')).toBeVisible();
    await expect(phone).toBeFocused();
    // an invalid number: the focus stays on the field, which says why
    await page.keyboard.type('12');
    await page.keyboard.press('Enter');
    await expect(phone).toBeFocused();
    await expect(phone).toHaveAttribute('aria-invalid', 'true');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    const changed = `20155${String(Date.now()).slice(-5)}`;
    await page.keyboard.type(changed);
    await page.keyboard.press('Enter');
    await expect(heading(page, 'Verify your phone number')).toBeVisible();
    await expect(firstCell(page)).toBeFocused();
    await page.keyboard.type((await latestMessage(`+1${changed}`)).code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  });

  test('log-in view: an unknown account, sign-up by the link, then log-in by e-mail code', async ({ page }) => {
    const email = uniqueEmail('keys-login');
    await page.goto('/login.html');
    const field = textbox(page, 'Email address');
    await expect(field).toBeFocused();
    // the server's answer moves the focus from the button to the field it is about
    await page.keyboard.type(uniqueEmail('nobody'));
    await tabTo(page, button(page, 'Continue'));
    await page.keyboard.press('Enter');
    await expect(widget(page).getByText("Couldn't find your account.")).toBeVisible();
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute('aria-invalid', 'true');

    await tabTo(page, button(page, 'Sign up'));
    await page.keyboard.press('Enter');
    await expect(textbox(page, 'Full name')).toBeFocused();
    await page.keyboard.type('Grace Hopper');
    await page.keyboard.press('Tab');
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await expect(firstCell(page)).toBeFocused();
    await page.keyboard.type((await latestMessage(email)).code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');

    const sent = (await latestMessage(email)).id;
    await page.evaluate(() => Corbado.logout());
    // welcome back: "Use another account" leads to the plain log-in, its field focused
    await expect(heading(page, 'Welcome back')).toBeFocused();
    await tabTo(page, button(page, 'Use another account'));
    await page.keyboard.press('Enter');
    await expect(field).toBeFocused();
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await expect(heading(page, 'Enter your code')).toBeVisible();
    await expect(firstCell(page)).toBeFocused();
    await page.keyboard.type((await latestMessage(email, sent)).code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  });

  test('an e-mail link opened in another browser: each answer is a Tab away, in order, and Enter answers', async ({ page, browser }) => {
    const email = uniqueEmail('keys-link');
    await page.goto('/?project=pro-2#register');
    await textbox(page, 'Email address').fill(email);
    await button(page, 'Continue').click();
    await expect(heading(page, 'Check your inbox')).toBeVisible();
    const device = await (await browser.newContext()).newPage();
    await device.goto((await latestMessage(email)).link!);
    // the page's first screen: the focus stays where the page load leaves it, as on every first screen
    await expect(heading(device, 'Did you ask to sign up for Demo App (e-mail link)?')).toBeVisible();
    await tabTo(device, button(device, "Yes, it's me: continue there"));
    await tabTo(device, button(device, "No, I didn't ask for this"));
    await tabTo(device, button(device, 'Sign up here instead'));
    await tabTo(device, button(device, "No, I didn't ask for this"), 'Shift+Tab');
    await device.keyboard.press('Enter');
    await expect(heading(device, 'Request declined')).toBeFocused();
    await expect(heading(page, 'Request declined')).toBeVisible({ timeout: 10_000 });
    await device.context().close();
  });

  test('passkey list view: the delete dialog traps the focus, Escape closes it, the focus returns', async ({ page }) => {
    const authenticator = await addAuthenticator(page);
    const email = uniqueEmail('keys-list');
    await page.goto('/#register');
    await textbox(page, 'Full name').fill('Passkey Owner');
    await textbox(page, 'Email address').fill(email);
    await page.keyboard.press('Enter');
    await firstCell(page).fill((await latestMessage(email)).code!);
    await button(page, 'Create passkey').click();
    await button(page, 'Continue').click();
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    expect(await authenticator.credentials()).toHaveLength(1);

    await page.goto('/account.html');
    const list = page.locator('#widget');
    // two views on one page: each is a section under the page's own heading, none is an h1
    await expect(list.getByRole('heading', { level: 2, name: 'Your passkeys' })).toBeVisible();
    await expect(page.locator('#user-details').getByRole('heading', { level: 2, name: 'Your account' })).toBeVisible();
    await expect(page.locator('#widget, #user-details').getByRole('heading', { level: 1 })).toHaveCount(0);
    const trash = list.getByRole('button', { name: /^Delete Passkey, created / });
    await tabTo(page, trash);
    await page.keyboard.press('Enter');
    const dialog = list.getByRole('dialog', { name: 'Delete passkey?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAccessibleDescription(/^You will no longer be able to log in with “Passkey”, created /);
    const cancel = dialog.getByRole('button', { name: 'Cancel' });
    const confirm = dialog.getByRole('button', { name: 'Delete' });
    await expect(cancel).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(confirm).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(cancel).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(confirm).toBeFocused();
    // the dialog is modal, so the rest of the page is inert: the host's own button, visible behind it,
    // cannot be clicked
    const logOut = page.getByRole('button', { name: 'Log out' });
    await expect(logOut).toBeVisible();
    expect(await dialog.evaluate((d) => d.matches(':modal'))).toBe(true);
    await expect(logOut.click({ timeout: 1_000, trial: true })).rejects.toThrow(/intercepts pointer events/);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(trash).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(cancel).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(list.getByText('You have no passkeys yet.')).toBeVisible();
    await expect(list.getByRole('heading', { name: 'Your passkeys' })).toBeFocused();
  });

  test("user details view: another device signed out, then everywhere else; the focus goes to the list's heading", async ({ page }) => {
    test.setTimeout(60_000);
    const projectId = await createProject({ passkeys: false });
    const email = uniqueEmail('keys-devices');
    await signUpByEmailCode(page, email, { url: `/?project=${projectId}#register` });
    await signInElsewhere(projectId, email);
    await signInElsewhere(projectId, email, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1');
    await page.goto(`/account.html?project=${projectId}`);
    const details = page.locator('#user-details');
    const heading = details.getByRole('heading', { name: 'Signed-in devices' });
    await expect(details.getByText('This device')).toBeVisible();
    // (the host page's doing: the walk starts at the list, not at the top of the account)
    await heading.focus();
    const end = details.getByRole('button', { name: 'Sign out: Firefox 128 on Windows' });
    await tabTo(page, end);
    await page.keyboard.press('Enter');
    await expect(end).toHaveCount(0);
    await expect(heading).toBeFocused();
    const everywhere = details.getByRole('button', { name: 'Sign out everywhere else' });
    await tabTo(page, everywhere);
    await page.keyboard.press('Enter');
    await expect(details.getByRole('button', { name: /^Sign out/ })).toHaveCount(0);
    await expect(heading).toBeFocused();
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  });
});
