import type { Locator, Page } from '@playwright/test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import de from '../src/core/i18n/de.json' with { type: 'json' };
import en from '../src/core/i18n/en.json' with { type: 'json' };
import { differingPixels } from './differingPixels';
import { addAuthenticator, API_URL, expect, latestMessage, widget } from './fixtures';
import { latestLink } from './kit/corbadoKit';

// A walk through every screen of every view, driven by the real flows against the real local server,
// in one language and colour scheme. The accessibility sweep, the narrow-screen checks and the
// screenshots all take this walk and look at each stop.

export type Language = 'en' | 'de';

export interface TourOptions {
  language: Language;
  dark: boolean;
  /** makes the walk's addresses and numbers its own (each walk signs up fresh accounts) */
  tag: string;
}

export interface Stop {
  /** the screen, as the issue lists them */
  name: (typeof TOUR_STOPS)[number];
  /** the page the screen is on (the link opened elsewhere has its own) */
  page: Page;
  /** parts that differ from run to run (dates, ids, countdowns), masked in screenshots */
  volatile: Locator[];
  /** the same where a dialog is open, which masks would cover: CSS selectors, made invisible */
  hidden?: string;
}

type Tree = { [key: string]: string | Tree };

/** The widget's own text for a key, so the walk reads the screens in either language. */
export function textOf(language: Language, key: string, values: Record<string, string | number> = {}): string {
  let node: string | Tree | undefined = (language === 'de' ? de : en) as Tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text for ${key}`);
  return node.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
}

/** The screens in the order the walk reaches them. */
export const TOUR_STOPS = [
  'signup-init',
  'signup-init-invalid',
  'email-otp',
  'edit-email',
  'abort-confirmation',
  'passkey-append',
  'passkey-benefits',
  'passkey-error',
  'passkey-appended',
  'account-logged-in',
  'delete-dialog',
  'already-exists-dialog',
  'account-logged-out',
  'login-init',
  'passkey-login',
  'email-link-sent',
  'email-link-opened-elsewhere',
  'phone-country-list',
  'phone-otp',
  'edit-phone',
  'missing-fields',
  'component-unavailable',
  'welcome-back',
] as const;

/**
 * A screenshot of what the widget shows at a stop: its views, open dialogs and popups with a margin
 * around them (the whole width with `fullWidth`), run-to-run differences masked.
 */
export async function screenshotStop({ page, volatile, hidden }: Stop, path: string, fullWidth = false): Promise<void> {
  // a passkey's dates and id (masked) stay on one line each and take no width of their own, so that
  // their length never moves what follows; in place before measuring, taken out after the shot
  const steady = (on: boolean) =>
    page.evaluate((on) => {
      for (const host of document.querySelectorAll('#widget, #user-details')) {
        const root = host.shadowRoot;
        if (!root) continue;
        root.querySelector('style[data-screenshot]')?.remove();
        if (!on) continue;
        const style = document.createElement('style');
        style.dataset.screenshot = '';
        style.textContent = '.cb-passkey .cb-muted { white-space: nowrap; overflow: hidden; contain: inline-size; }';
        root.append(style);
      }
    }, on);
  await steady(true);
  const boxes = [];
  for (const part of await page.locator('#widget, #user-details, dialog[open], .cb-country-popover').all()) {
    const box = await part.boundingBox();
    if (box && box.height) boxes.push(box);
  }
  // whole pixels, so that the edges come out the same in every run
  const width = page.viewportSize()!.width;
  const top = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.y)) - 16));
  const left = fullWidth ? 0 : Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.x)) - 16));
  const right = fullWidth ? width : Math.min(width, Math.ceil(Math.max(...boxes.map((b) => b.x + b.width)) + 16));
  const bottom = Math.ceil(Math.max(...boxes.map((b) => b.y + b.height)) + 16);
  const shot = await page.screenshot({
    fullPage: true,
    clip: { x: left, y: top, width: right - left, height: bottom - top },
    animations: 'disabled',
    mask: volatile,
    maskColor: '#8a94a8',
    // the demo's host panel shows tokens and times; it is the host page, not the widget
    style: `.host-panel${hidden ? `, ${hidden}` : ''} { visibility: hidden; }`,
  });
  await steady(false);
  // the card's shadow comes out a shade different from run to run: such a screenshot is not rewritten
  if (existsSync(path) && !(await differingPixels(page, readFileSync(path), shot, 2))) return;
  writeFileSync(path, shot);
}

export async function screenTour(page: Page, options: TourOptions, visit: (stop: Stop) => Promise<void>): Promise<void> {
  const { language, tag } = options;
  const text = (key: string, values?: Record<string, string | number>) => textOf(language, key, values);
  const query = (project: string) => `project=${project}&lang=${language}&dark=${options.dark ? 'on' : 'off'}`;
  const view = widget(page);
  const heading = (key: string, on = view) => expect(on.getByRole('heading', { name: text(key), exact: true })).toBeVisible();
  const button = (key: string, values?: Record<string, string | number>) => view.getByRole('button', { name: text(key, values), exact: true });
  const field = (key: string) => view.getByRole('textbox', { name: text(key), exact: true });
  const countdown = view.getByRole('button', { name: /\d+\s?s$/ });
  const stop = (name: Stop['name'], volatile: Locator[] = [], hidden?: string) => visit({ name, page, volatile, hidden });
  const authenticator = await addAuthenticator(page);
  const email = `tour-${tag}@example.com`;

  // pro-1: sign-up with an e-mail code, the abort confirmation, every passkey-append screen
  await page.goto(`/?${query('pro-1')}#register`);
  await heading('signupInit.header');
  await stop('signup-init');
  await button('signupInit.submit').click();
  await expect(field('fields.fullName')).toHaveAttribute('aria-invalid', 'true');
  await stop('signup-init-invalid');
  await field('fields.fullName').fill('Ada Lovelace');
  await field('fields.email').fill(email);
  await button('signupInit.submit').click();
  await heading('emailOtp.signup.header');
  await stop('email-otp', [countdown]);
  await button('emailOtp.edit').click();
  await heading('edit.header.email');
  await stop('edit-email');
  await button('common.cancel').click();
  await heading('emailOtp.signup.header');
  await page.goBack();
  await heading('abort.title');
  await stop('abort-confirmation');
  await button('abort.confirm').click();
  await view.getByRole('textbox', { name: text('otp.cell', { index: 1, count: 6 }) }).fill((await latestMessage(email)).code!);
  await heading('passkeyAppend.signup.header');
  await stop('passkey-append');
  await button('passkeyAppend.learnMore').click();
  await heading('passkeyBenefits.header');
  await stop('passkey-benefits');
  await button('common.back').click();
  await authenticator.setUserVerified(false);
  await button('passkeyAppend.create').click();
  await heading('passkeyError.appendHeader');
  await stop('passkey-error');
  await authenticator.setUserVerified(true);
  await button('passkeyError.retry').click();
  await heading('passkeyAppended.header');
  await stop('passkey-appended');
  await button('common.continue').click();
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');

  // the account page: user details and passkey list, both dialogs, then logged out
  await page.goto(`/account.html?${query('pro-1')}`);
  const passkeys = page.locator('#widget');
  await heading('passkeyList.header', passkeys);
  await expect(page.locator('#user-details').getByText(email)).toBeVisible();
  const passkeyDetails = passkeys.locator('.cb-passkey .cb-muted');
  await stop('account-logged-in', [passkeyDetails]);
  await passkeys.getByRole('button', { name: new RegExp(`^${text('passkeyList.deleteNamed', { name: '.+', date: '.+' })}$`) }).click();
  await expect(passkeys.getByRole('dialog')).toBeVisible();
  // masks would be drawn over the dialog: there the run-to-run parts are made invisible instead
  await stop('delete-dialog', [], '.cb-passkey .cb-muted, dialog .cb-text');
  await page.keyboard.press('Escape');
  await expect(passkeys.getByRole('dialog')).toHaveCount(0);
  await passkeys.getByRole('button', { name: text('passkeyList.create') }).click();
  await expect(passkeys.getByRole('dialog', { name: text('dialogs.passkeyAlreadyExists.header') })).toBeVisible();
  await stop('already-exists-dialog', [], '.cb-passkey .cb-muted');
  await passkeys.getByRole('button', { name: text('common.ok') }).click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.locator('#host-auth-state')).toHaveText('logged out');
  await expect(passkeys.getByText(text('account.pleaseLogIn'))).toBeVisible();
  await stop('account-logged-out');

  // log-in: the passkey prompt stays open while the visitor has not answered it. This browser signed
  // up above, so the log-in offers that account first: "Use another account" for the plain log-in
  await authenticator.setPresence(false);
  await page.goto(`/login.html?${query('pro-1')}`);
  await heading('welcomeBack.header');
  await button('welcomeBack.other').click();
  // the pointer would leave the button below it (Continue) in its hover colour
  await page.mouse.move(0, 0);
  await heading('loginInit.header');
  await stop('login-init');
  await field('fields.email').fill(email);
  await button('loginInit.submit').click();
  await heading('passkeyVerify.header');
  // the log-in starts by itself and shows that it waits for the passkey prompt
  await expect(button('passkeyVerify.start')).toHaveAttribute('aria-busy', 'true');
  await stop('passkey-login');

  // pro-2: the e-mail link, opened in another browser
  await authenticator.setPresence(true);
  const linkEmail = `tour-link-${tag}@example.com`;
  await page.goto(`/?${query('pro-2')}#register`);
  await field('fields.email').fill(linkEmail);
  await button('signupInit.submit').click();
  await button('passkeyAppend.create').click();
  await heading('emailLink.signup.header');
  await stop('email-link-sent', [countdown]);
  const link = await latestLink(linkEmail, { apiUrl: API_URL });
  const elsewhere = await page.context().browser()!.newContext({ viewport: page.viewportSize() });
  const device = await elsewhere.newPage();
  await device.goto(`${link}&${query('pro-2')}`);
  await heading('emailLinkSuccess.header', widget(device));
  await visit({ name: 'email-link-opened-elsewhere', page: device, volatile: [] });
  await elsewhere.close();

  // pro-3: the phone field with its country list, the SMS code, editing the number
  const national = `20155${String([...tag].reduce((hash, c) => (hash * 31 + c.charCodeAt(0)) % 100000, 7)).padStart(5, '0')}`;
  await page.goto(`/?${query('pro-3')}#register`);
  await view.getByRole('button', { name: new RegExp(text('phone.country', { country: '' })) }).click();
  await expect(view.getByRole('listbox')).toBeVisible();
  await stop('phone-country-list');
  await page.keyboard.press('Escape');
  await field('fields.phone').fill(national);
  await button('signupInit.submit').click();
  await button('fallback.phone-otp').click();
  await heading('phoneOtp.signup.header');
  await stop('phone-otp', [countdown]);
  await button('phoneOtp.edit').click();
  await heading('edit.header.phone');
  await stop('edit-phone');

  // pro-7: the username the account still lacks
  const missingEmail = `tour-missing-${tag}@example.com`;
  await page.goto(`/?${query('pro-7')}#register`);
  await field('fields.email').fill(missingEmail);
  await button('signupInit.submit').click();
  await view.getByRole('textbox', { name: text('otp.cell', { index: 1, count: 6 }) }).fill((await latestMessage(missingEmail)).code!);
  await heading('missingFields.header');
  await stop('missing-fields');

  // a project the server does not know
  await page.goto(`/?${query('pro-999999')}`);
  await heading('componentUnavailable.header');
  await stop('component-unavailable');

  // pro-1 again: the passkey log-in left waiting above goes through once answered, and after a
  // log-out the log-in offers that account first, its passkey as the main action. (The e-mail link
  // may have signed this browser in to pro-2 meanwhile, and a session is the site's: out first.)
  await page.goto(`/account.html?${query('pro-1')}`);
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.locator('#host-auth-state')).toHaveText('logged out');
  await authenticator.setPresence(true);
  await page.goto(`/login.html?${query('pro-1')}`);
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  await page.evaluate(() => Corbado.logout());
  await heading('welcomeBack.header');
  await expect(button('passkeyVerify.start')).toBeVisible();
  await stop('welcome-back');
}
