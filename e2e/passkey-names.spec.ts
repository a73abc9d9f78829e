import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { SoftAuthenticator } from '../server/test/helpers/softAuthenticator.ts';
import { addAuthenticator, API_URL, expect, signUpByEmailCode, test, uniqueEmail, widget } from './fixtures';

// The passkey list names each passkey's authenticator and shows its icon for the page's light or dark
// mode, both from the Frontend API's AAGUID catalogue (`aaguidDetails`).
//
// Two passkeys on one account: one made in the browser by Chromium's virtual authenticator, whose AAGUID
// (a fixed test value, 01020304-0506-0708-0102-030405060708) no catalogue knows
// ("Passkey"); and one of a known authenticator
// (Google Password Manager). No browser here can report that AAGUID, so the second passkey is added over
// the Frontend API itself with the user's session, made by the software authenticator of the server
// tests: a real registration with that AAGUID in its authenticator data, verified by the server like any
// other (e2e/engines/passkeyUser.ts makes passkeys the same way).

const GOOGLE_PASSWORD_MANAGER = 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4';
const catalogue = JSON.parse(readFileSync(new URL('../server/aaguids/catalogue.json', import.meta.url), 'utf8')) as Record<
  string,
  { name: string; icon_light: string; icon_dark: string }
>;
const known = catalogue[GOOGLE_PASSWORD_MANAGER]!;

interface Details {
  name: string;
  iconLight: string;
  iconDark: string;
}

/** A passkey of `aaguid` for the logged-in user, through /v2/me/passkeys/append with the page's long session. */
async function appendPasskeyOverApi(page: Page, aaguid: string): Promise<void> {
  const origin = new URL(page.url()).origin;
  const longSession = await page.evaluate(() => localStorage.getItem('cbo_long_session'));
  expect(longSession).toBeTruthy();
  const call = async (path: string, body: unknown) => {
    const response = await fetch(`${API_URL}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Corbado-ProjectID': 'pro-1', Origin: origin, Authorization: `Bearer ${longSession}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const answer = (await response.json()) as Record<string, string>;
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const device = { isUserVerifyingPlatformAuthenticatorAvailable: true, isConditionalMediationAvailable: true };
  const { attestationOptions } = await call('/v2/me/passkeys/append/start', { clientInformation: device });
  await call('/v2/me/passkeys/append/finish', { attestationResponse: new SoftAuthenticator(origin, aaguid).create(attestationOptions!), clientInformation: device });
}

/** The passkey list's cards: the name and the icon shown (its data URL, whether the browser could draw it). */
async function cards(page: Page) {
  const list = widget(page).getByRole('listitem');
  await expect(list).toHaveCount(2);
  return Promise.all(
    (await list.all()).map(async (card) => ({
      // the name, without the "Synced" badge beside it
      name: await card.locator('.cb-passkey-name').evaluate((p) => p.firstChild?.textContent),
      icon: await card.locator('img.cb-passkey-icon').evaluate((img: HTMLImageElement) => ({
        src: img.getAttribute('src'),
        alt: img.getAttribute('alt'),
        drawn: img.complete && img.naturalWidth > 0,
      })),
    })),
  );
}

test('the passkey list shows the name and the icon of the page\'s mode of a known authenticator, "Passkey" for an unknown one', async ({ page }) => {
  test.setTimeout(60_000);
  await addAuthenticator(page);
  await signUpByEmailCode(page, uniqueEmail('names'), { fullName: 'Ada Lovelace', passkey: true });
  await appendPasskeyOverApi(page, GOOGLE_PASSWORD_MANAGER);

  await page.goto('/account.html?dark=on');
  const [unknown, ofGoogle] = await cards(page);
  // the default icons the server gives an AAGUID it does not know
  const { passkeys } = (await (
    await fetch(`${API_URL}/v2/me/passkeys`, {
      headers: { 'X-Corbado-ProjectID': 'pro-1', Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('cbo_long_session'))}` },
    })
  ).json()) as { passkeys: { authenticatorAAGUID: string; aaguidDetails: Details }[] };
  expect(passkeys.map((p) => p.authenticatorAAGUID)).toEqual([expect.not.stringMatching(GOOGLE_PASSWORD_MANAGER), GOOGLE_PASSWORD_MANAGER]);
  expect(catalogue[passkeys[0]!.authenticatorAAGUID]).toBeUndefined();
  const fallback = passkeys[0]!.aaguidDetails;
  expect(fallback.name).toBe('Passkey');
  expect(fallback.iconDark).not.toBe(fallback.iconLight);

  expect(ofGoogle).toEqual({ name: 'Google Password Manager', icon: { src: known.icon_dark, alt: '', drawn: true } });
  expect(unknown).toEqual({ name: 'Passkey', icon: { src: fallback.iconDark, alt: '', drawn: true } });
  // the name is text: the delete button says which passkey it removes
  await expect(widget(page).getByRole('button', { name: /^Delete Google Password Manager, created / })).toBeVisible();

  await page.goto('/account.html?dark=off');
  expect((await cards(page)).map((card) => card.icon.src)).toEqual([fallback.iconLight, known.icon_light]);

  // auto follows the system's colour scheme
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/account.html?dark=auto');
  expect((await cards(page)).map((card) => card.icon.src)).toEqual([fallback.iconDark, known.icon_dark]);
});
