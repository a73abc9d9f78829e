import { API_URL, expect, latestMessage, messagesTo, test, uniqueEmail, widget } from './fixtures';
import type { APIRequestContext, Page } from '@playwright/test';

// pro-10: a project with its own sign-up fields (an optional company, a required terms box linking to
// the terms page, an optional newsletter box). The terms cannot be skipped in the browser nor over
// plain HTTP, and what was agreed to is stored with its version.

/** The long session the demo page keeps (dev projects hand it out), for /v2/me as the host would call it. */
async function meOf(page: Page) {
  return page.evaluate(async (api) => {
    const response = await fetch(`${api}/v2/me`, {
      headers: { 'X-Corbado-ProjectID': 'pro-10', Authorization: `Bearer ${localStorage.getItem('cbo_long_session')}` },
    });
    return (await response.json()) as {
      signupFields?: { id: string; accepted?: boolean; version?: string; value?: string; answeredAt: string; shown?: { language: string; label: string; url?: string } }[];
    };
  }, API_URL);
}

test.describe('pro-10: sign-up fields', () => {
  test('[security] the terms box is required in the browser; the agreement is stored with its version and shown on the account page', async ({ page }) => {
    const email = uniqueEmail('terms');
    await page.goto('/?project=pro-10#register');
    const view = widget(page);
    await view.getByRole('textbox', { name: 'Full name' }).fill('Ada Lovelace');
    await view.getByRole('textbox', { name: 'Email address' }).fill(email);
    await view.getByRole('textbox', { name: 'Company (optional)' }).fill('Analytical Engines Ltd');
    const terms = view.getByRole('checkbox', { name: 'I accept the terms of use' });
    await expect(terms).not.toBeChecked();
    await expect(view.getByRole('link', { name: 'terms of use' })).toHaveAttribute('href', /\/terms\.html$/);
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByText('Please accept this to continue.')).toBeVisible();
    await expect(terms).toHaveAttribute('aria-invalid', 'true');
    await expect(terms).toBeFocused();
    // nothing was sent, and nothing typed is lost
    expect(await messagesTo(email)).toEqual([]);
    await expect(view.getByRole('textbox', { name: 'Company (optional)' })).toHaveValue('Analytical Engines Ltd');

    await terms.check();
    await view.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(view.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await view.getByRole('textbox', { name: 'Digit 1 of 6' }).fill((await latestMessage(email)).code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');

    const me = await meOf(page);
    expect(me.signupFields).toEqual([
      expect.objectContaining({ id: 'company', value: 'Analytical Engines Ltd' }),
      expect.objectContaining({ id: 'terms', accepted: true, version: '2026-11', answeredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/) }),
      expect.objectContaining({ id: 'newsletter', accepted: false, version: '1' }),
    ]);

    await page.goto('/account.html?project=pro-10');
    const details = page.locator('#user-details');
    await expect(details.getByRole('heading', { name: 'Sign-up details' })).toBeVisible();
    await expect(details.getByText(/^Accepted on .+ \(version 2026-11\)$/)).toBeVisible();
    await expect(details.getByText('Analytical Engines Ltd')).toBeVisible();
    await expect(details.getByText('Not accepted')).toBeVisible();
  });

  test('a German page: the agreement on record is the German text the widget showed, with its link', async ({ page, baseURL }) => {
    const email = uniqueEmail('terms-de');
    await page.goto('/?project=pro-10&lang=de#register');
    const view = widget(page);
    await view.getByRole('textbox', { name: 'Vollständiger Name' }).fill('Ada Lovelace');
    await view.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill(email);
    await view.getByRole('checkbox', { name: 'Ich akzeptiere die Nutzungsbedingungen' }).check();
    await view.getByRole('button', { name: 'Weiter', exact: true }).click();
    await view.getByRole('textbox', { name: 'Ziffer 1 von 6' }).fill((await latestMessage(email)).code!);
    await expect(page.locator('#host-auth-state')).toHaveText('logged in');
    const terms = (await meOf(page)).signupFields?.find((f) => f.id === 'terms');
    expect(terms).toMatchObject({ accepted: true, version: '2026-11', shown: { language: 'de', label: 'Ich akzeptiere die [Nutzungsbedingungen]', url: `${new URL(baseURL!).origin}/terms.html` } });
  });

  test('[security] over plain HTTP, a sign-up without the terms, or with a forged answer, is refused', async ({ playwright }) => {
    const api: APIRequestContext = await playwright.request.newContext({
      baseURL: API_URL,
      extraHTTPHeaders: { 'X-Corbado-ProjectID': 'pro-10', Origin: new URL(test.info().project.use.baseURL!).origin },
    });
    const init = await (await api.post('/v2/auth/process/init', { data: { clientInformation: {} } })).json();
    const process = { 'X-Corbado-Process-ID': init.token as string };
    const email = uniqueEmail('terms-http');
    const signup = (signupFields?: unknown) =>
      api.post('/v2/auth/signup/init', { headers: process, data: { identifiers: [{ type: 'email', identifier: email }], fullName: 'Mallory', signupFields } });

    for (const answers of [undefined, [{ id: 'terms', accepted: false, version: '2026-11' }], [{ id: 'terms', accepted: true, version: '2020-01' }]]) {
      const refused = await signup(answers);
      expect(refused.status()).toBe(200);
      const block = (await refused.json()).blockBody;
      expect(block.block).toBe('signup-init');
      expect(block.data.signupFields.find((f: { id: string }) => f.id === 'terms').error.code).toMatch(/^signup_field_(required|outdated)$/);
    }
    const forged = await signup([{ id: 'terms', accepted: true, version: '2026-11' }, { id: 'isAdmin', value: 'yes' }]);
    expect(forged.status()).toBe(400);
    expect((await forged.json()).error.type).toBe('invalid_request');
    expect(await messagesTo(email)).toEqual([]);

    const accepted = await signup([{ id: 'terms', accepted: true, version: '2026-11' }]);
    expect((await accepted.json()).blockBody.block).toBe('email-verify');
    await api.dispose();
  });
});

test.describe('languages as add-on scripts', () => {
  test('?lang=fr loads the French add-on: the widget speaks French with lang="fr", and the e-mail code arrives in French', async ({ page }) => {
    const email = uniqueEmail('fr');
    const addOn = page.waitForResponse((response) => response.url().endsWith('/dist/corbado.fr.js'));
    await page.goto('/?project=pro-1&lang=fr#register');
    expect((await addOn).status()).toBe(200);
    const view = widget(page);
    await expect(view.getByRole('heading', { name: 'Créez votre compte' })).toBeVisible();
    await expect(page.locator('#widget .cb-root')).toHaveAttribute('lang', 'fr');
    await view.getByRole('textbox', { name: 'Nom complet' }).fill('Ada Lovelace');
    await view.getByRole('textbox', { name: 'Adresse e-mail' }).fill(email);
    await view.getByRole('button', { name: 'Continuer', exact: true }).click();
    await expect(view.getByRole('heading', { name: 'Vérifiez votre adresse e-mail' })).toBeVisible();
    const mail = await latestMessage(email);
    expect(mail.subject).toBe(`Votre code Demo App\u00a0: ${mail.code}`);
    expect(mail.text).toContain(`Bonjour,\n\nVotre code de vérification pour Demo App est\u00a0: ${mail.code}`);
    expect(mail.html).toContain('<html lang="fr">');
  });

  test.describe('a page that puts the add-ons after the bundle, in a Polish browser', () => {
    test.use({ locale: 'pl-PL' });

    test('autodetect picks Polish from the add-on scripts after the bundle, and the SMS code follows', async ({ page }) => {
      // languages.html: the bundle, then the six add-on scripts, and the widget's defaults (autodetect on)
      await page.goto('/languages.html?project=pro-3&view=signup');
      const view = widget(page);
      await expect(view.getByRole('heading', { name: 'Utwórz konto' })).toBeVisible();
      await expect(page.locator('#widget .cb-root')).toHaveAttribute('lang', 'pl');
      const national = `20155${String(Date.now() % 100000).padStart(5, '0')}`;
      await view.getByRole('textbox', { name: 'Numer telefonu' }).fill(national);
      await view.getByRole('button', { name: 'Dalej', exact: true }).click();
      // no passkey device: the SMS code at once
      await expect(view.getByRole('heading', { name: 'Potwierdź swój numer telefonu' })).toBeVisible();
      const sms = await latestMessage(`+1${national}`);
      expect(sms.text).toMatch(new RegExp(`^${sms.code} to Twój kod w aplikacji .+\\. Wygasa za 10 minut\\.`));
    });
  });
});
