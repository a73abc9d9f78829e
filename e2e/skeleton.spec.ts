import { afterPreflightWarmUp, API_URL, expect, test, widget } from './fixtures';

test.describe('walking skeleton', () => {
  test('[spec 1.view-auth] the auth view renders inside a shadow root, on the log-in screen the server chose', async ({ page }) => {
    await page.goto('/');
    const view = widget(page);
    await expect(view.getByRole('heading', { name: 'Log in' })).toBeVisible();
    expect(await page.evaluate(() => document.getElementById('widget')!.shadowRoot?.mode)).toBe('open');
    // nothing of the widget lives in the light DOM
    expect(await page.evaluate(() => document.getElementById('widget')!.children.length)).toBe(0);
    await expect(view.getByRole('textbox', { name: 'Email address' })).toBeFocused();
    await expect(view.getByRole('link', { name: /Secured by/ })).toHaveAttribute('href', /corbado\.com/);
    await expect(page).toHaveURL(/#login-init$/);
  });

  test('every demo page loads without a missing file, favicon included', async ({ page }) => {
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    for (const path of ['/', '/signup.html', '/login.html', '/account.html', '/blank.html']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    const icon = await page.request.get('/favicon.svg');
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
    expect(failed).toEqual([]);
  });

  test('the widget adds nothing to window but Corbado', async ({ page }) => {
    await page.goto('/blank.html');
    const before = await page.evaluate(() => Object.getOwnPropertyNames(window));
    await page.addScriptTag({ url: '/dist/corbado.js' });
    const afterScript = await page.evaluate(() => Object.getOwnPropertyNames(window));
    expect(afterScript.filter((name) => !before.includes(name))).toEqual(['Corbado']);
    // loading and mounting adds no global either
    await page.evaluate(async (apiUrl) => {
      await Corbado.load({ projectId: 'pro-1', frontendApiUrl: apiUrl });
      Corbado.mountAuthUI(document.getElementById('w')!);
    }, API_URL);
    await expect(page.locator('#w').getByRole('heading', { name: 'Log in' })).toBeVisible();
    const afterMount = await page.evaluate(() => Object.getOwnPropertyNames(window));
    expect(afterMount.filter((name) => !before.includes(name))).toEqual(['Corbado']);
    // no style reaches the host document
    expect(await page.evaluate(() => document.querySelectorAll('style, link[rel=stylesheet]').length)).toBe(0);
  });

  test('[spec 2.hash-mirrors-block] [spec 2.hash-switch] [spec 4.signup-login-switch] the sign-up link switches screens without a server call, and the hash follows', async ({ page }) => {
    await page.goto('/');
    const view = widget(page);
    await expect(view.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await afterPreflightWarmUp(page);
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v2/')) calls.push(request.url());
    });
    await view.getByRole('button', { name: 'Sign up' }).click();
    await expect(view.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(page).toHaveURL(/#signup-init$/);
    await expect(view.getByRole('textbox', { name: 'Full name' })).toBeVisible();
    await view.getByRole('button', { name: 'Log in' }).click();
    await expect(view.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(page).toHaveURL(/#login-init$/);
    expect(calls).toEqual([]);
    // the back button returns to the previous block through the history entry
    await page.goBack();
    await expect(view.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  });

  test('[spec 2.hash-aliases] the #register and #login hashes pick the first screen', async ({ page }) => {
    await page.goto('/#register');
    await expect(widget(page).getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await page.goto('/login.html#login');
    await expect(widget(page).getByRole('heading', { name: 'Log in' })).toBeVisible();
  });

  test('a reload resumes on the screen the address names', async ({ page }) => {
    await page.goto('/');
    await widget(page).getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/#signup-init$/);
    await page.reload();
    await expect(widget(page).getByRole('heading', { name: 'Create your account' })).toBeVisible();
    const stored = await page.evaluate(() => localStorage.getItem('cbo_auth_process-pro-1'));
    expect(JSON.parse(stored!)).toMatchObject({ id: expect.any(String), expiresAt: expect.any(Number) });
  });

  test('[spec 1.view-signup] [spec 1.view-login] the sign-up page starts on sign-up and the log-in page on log-in', async ({ page }) => {
    await page.goto('/signup.html');
    await expect(widget(page).getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await page.goto('/login.html');
    await expect(widget(page).getByRole('heading', { name: 'Log in' })).toBeVisible();
  });

  test('[spec 6.signup-config] a project without public sign-up shows no sign-up link', async ({ page }) => {
    await page.goto('/?project=pro-5');
    await expect(widget(page).getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expect(widget(page).getByRole('button', { name: 'Sign up' })).toHaveCount(0);
  });

  test('a project with e-mail and phone offers the switch to the phone field', async ({ page }) => {
    await page.goto('/?project=pro-6');
    const view = widget(page);
    await view.getByRole('button', { name: 'Use phone number instead' }).click();
    await expect(view.getByRole('textbox', { name: 'Phone number' })).toBeVisible();
    await view.getByRole('button', { name: 'Use email address instead' }).click();
    await expect(view.getByRole('textbox', { name: 'Email address' })).toBeVisible();
  });

  test('[spec 1.option-support-email] [spec 2.component-unavailable] [spec 4.init-state] an unknown project shows the component-unavailable page with support contact and reload', async ({ page }) => {
    await page.goto('/?project=pro-999999');
    const view = widget(page);
    await expect(view.getByRole('heading', { name: 'Log-in is unavailable right now' })).toBeVisible();
    await expect(view.getByText('support@example.com')).toBeVisible();
    await expect(view.getByRole('button', { name: 'Reload' })).toBeVisible();
  });

  test('[spec 1.load-first] [spec 1.project-id] mounting before load() throws, and an invalid project id rejects', async ({ page }) => {
    await page.goto('/blank.html');
    await page.addScriptTag({ url: '/dist/corbado.js' });
    const messages = await page.evaluate(async () => {
      const element = document.getElementById('w')!;
      const caught = (call: () => unknown) => {
        try {
          call();
          return 'no error';
        } catch (error) {
          return (error as Error).message;
        }
      };
      const invalid = await Corbado.load({ projectId: 'project-1' }).then(
        () => 'loaded',
        (error: Error) => error.message,
      );
      return {
        auth: caught(() => Corbado.mountAuthUI(element)),
        passkeys: caught(() => Corbado.mountPasskeyListUI(element)),
        logout: await Corbado.logout().then(() => 'no error', (error: Error) => error.message),
        invalid,
      };
    });
    expect(messages).toEqual({
      auth: 'Please call load() before mountAuthUI',
      passkeys: 'Please call load() before mountPasskeyListUI',
      logout: 'Please call load() before logout',
      invalid: 'Invalid project ID',
    });
  });

  test('[spec 1.audience] [spec 2.passkey-list-login-warning] [spec 2.user-details-login-warning] [spec 6.please-log-in] the account page shows "Please log in" without a session', async ({ page }) => {
    await page.goto('/account.html');
    await expect(page.locator('#widget').getByText('Please log in to see this.')).toBeVisible();
    await expect(page.locator('#user-details').getByText('Please log in to see this.')).toBeVisible();
    await expect(page.locator('#host-auth-state')).toHaveText('logged out');
  });

  test('the language follows the browser when autodetect is on', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto('/');
    await expect(widget(page).getByRole('heading', { name: 'Anmelden' })).toBeVisible();
    await context.close();
  });
});
