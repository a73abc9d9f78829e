import type { Locator, Page } from '@playwright/test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import de from '../src/core/i18n/de.json' with { type: 'json' };
import en from '../src/core/i18n/en.json' with { type: 'json' };
import { differingPixels } from './differingPixels';
import { addAuthenticator, API_URL, createProject, expect, latestMessage, signInElsewhere, widget } from './fixtures';
import { latestLink } from './kit/corbadoKit';

// A walk through every screen of every view, driven by the real flows against the real local server,
// in one language. The accessibility sweep, the narrow-screen checks and the screenshots all take this
// walk and look at each stop (in both colour schemes, when the widget's darkMode is 'auto').

export type Language = 'en' | 'de';

export interface TourOptions {
  language: Language;
  /** the widget's darkMode: 'auto' follows the colour scheme the page emulates, which a stop may switch */
  dark: 'on' | 'off' | 'auto';
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
  'signup-fields',
  'signup-fields-invalid',
  'account-signup-fields',
  'email-link-declined',
  'email-link-refused',
  'email-link-approved',
  'social-verify',
  'account-social',
  'unlink-dialog',
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
        style.textContent = '.cb-passkey .cb-muted, .cb-row .cb-muted { white-space: nowrap; overflow: hidden; contain: inline-size; }';
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
  const query = (project: string) => `project=${project}&lang=${language}&dark=${options.dark}`;
  const view = widget(page);
  const heading = (key: string, on = view, values?: Record<string, string | number>) =>
    expect(on.getByRole('heading', { name: text(key, values), exact: true })).toBeVisible();
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

  // the account page: user details (with this device and another one the account is signed in on, which
  // can be signed out) and passkey list, both dialogs, then logged out
  await signInElsewhere('pro-1', email);
  await page.goto(`/account.html?${query('pro-1')}`);
  const passkeys = page.locator('#widget');
  await heading('passkeyList.header', passkeys);
  const details = page.locator('#user-details');
  await expect(details.getByText(email)).toBeVisible();
  await expect(details.getByRole('button', { name: text('user.endOthers') })).toBeVisible();
  const passkeyDetails = passkeys.locator('.cb-passkey .cb-muted');
  await stop('account-logged-in', [passkeyDetails, details.locator('.cb-row .cb-muted')]);
  await passkeys.getByRole('button', { name: new RegExp(`^${text('passkeyList.deleteNamed', { name: '.+', date: '.+' })}$`) }).click();
  await expect(passkeys.getByRole('dialog')).toBeVisible();
  // masks would be drawn over the dialog: there the run-to-run parts are made invisible instead
  await stop('delete-dialog', [], '.cb-passkey .cb-muted, .cb-row .cb-muted, dialog .cb-text');
  await page.keyboard.press('Escape');
  await expect(passkeys.getByRole('dialog')).toHaveCount(0);
  await passkeys.getByRole('button', { name: text('passkeyList.create') }).click();
  await expect(passkeys.getByRole('dialog', { name: text('dialogs.passkeyAlreadyExists.header') })).toBeVisible();
  await stop('already-exists-dialog', [], '.cb-passkey .cb-muted, .cb-row .cb-muted');
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
  // the match code is drawn anew for each link, the asker's browser and the time since differ
  const matchCode = (on: Page) => widget(on).locator('.cb-code');
  await stop('email-link-sent', [countdown, matchCode(page)]);
  // opened in another browser: what the link would approve, nothing done before a click
  const openElsewhere = async (address: string, project: string) => {
    const link = await latestLink(address, { apiUrl: API_URL });
    const device = await (await page.context().browser()!.newContext({ viewport: page.viewportSize() })).newPage();
    await device.goto(`${link}&${query(project)}`);
    return device;
  };
  const asked = (on: Page) => [matchCode(on), widget(on).locator('.cb-subtitle')];
  const device = await openElsewhere(linkEmail, 'pro-2');
  await heading('emailLinkRequest.signup', widget(device), { app: 'Demo App (e-mail link)' });
  await visit({ name: 'email-link-opened-elsewhere', page: device, volatile: asked(device) });
  await device.context().close();

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

  // pro-10: the project's own sign-up fields (a text, the required terms box, an optional one), refused
  // without the terms; then the agreement with its version on the account page
  const fieldsEmail = `tour-fields-${tag}@example.com`;
  await page.goto(`/?${query('pro-10')}#register`);
  await heading('signupInit.header');
  await stop('signup-fields');
  await field('fields.fullName').fill('Ada Lovelace');
  await field('fields.email').fill(fieldsEmail);
  await button('signupInit.submit').click();
  const terms = view.getByRole('checkbox').first();
  await expect(terms).toHaveAttribute('aria-invalid', 'true');
  await stop('signup-fields-invalid');
  await terms.check();
  await button('signupInit.submit').click();
  await view.getByRole('textbox', { name: text('otp.cell', { index: 1, count: 6 }) }).fill((await latestMessage(fieldsEmail)).code!);
  await button('passkeyAppend.skip').click();
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  await page.goto(`/account.html?${query('pro-10')}`);
  const fieldsDetails = page.locator('#user-details');
  await expect(fieldsDetails.getByRole('heading', { name: text('user.signupFields') })).toBeVisible();
  const agreedOn = fieldsDetails.getByText(new RegExp(`^${text('user.accepted', { date: '.+', version: '2026-11' }).replace(/[()]/g, '\\$&')}$`));
  await expect(agreedOn).toBeVisible();
  // the signed-in devices' times (as on every account stop) change from run to run
  await stop('account-signup-fields', [agreedOn, fieldsDetails.locator('.cb-row .cb-muted')]);

  // pro-2 again: the link opened elsewhere, declined there, then approved; a project that refuses approvals
  const askForLink = async (project: string, address: string) => {
    // a fresh process each time, not the one stored from before (its link may have expired meanwhile)
    await page.evaluate(() => localStorage.clear());
    await page.goto(`/?${query(project)}#register`);
    await field('fields.email').fill(address);
    await button('signupInit.submit').click();
    if (project === 'pro-2') await button('fallback.email-link').click();
    await heading('emailLink.signup.header');
    return openElsewhere(address, project);
  };
  const declining = await askForLink('pro-2', `tour-no-${tag}@example.com`);
  await widget(declining).getByRole('button', { name: text('emailLinkRequest.decline') }).click();
  await heading('errors.email_link_declined', widget(declining));
  await declining.context().close();
  await heading('errors.email_link_declined');
  await stop('email-link-declined');
  await button('common.startOver').click();
  await heading('signupInit.header');
  const refusing = await askForLink(await createProject({ appName: 'Same Browser Only', identifiers: { email: { verification: 'email-link' } }, passkeys: false, emailLinkOtherDevice: 'refuse' }), `tour-refused-${tag}@example.com`);
  await heading('emailLinkRequest.refused', widget(refusing));
  await visit({ name: 'email-link-refused', page: refusing, volatile: asked(refusing) });
  await refusing.context().close();
  const approving = await askForLink('pro-2', `tour-yes-${tag}@example.com`);
  await widget(approving).getByRole('button', { name: text('emailLinkRequest.approve') }).click();
  await heading('emailLinkSuccess.header', widget(approving));
  await visit({ name: 'email-link-approved', page: approving, volatile: [] });
  await approving.context().close();
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');

  // social sign-in through the provider simulator (in English, as a provider's own page is); the page
  // comes back without its query, and the demo keeps the language and colour scheme of the tab
  const socialEmail = `tour-social-${tag}@example.com`;
  const signInWith = async (provider: 'Google' | 'GitHub') => {
    await button('social.continueWith', { provider }).click();
    await page.waitForURL(new RegExp(`/_dev/oauth/${provider.toLowerCase()}/`));
    await page.getByLabel('Email', { exact: true }).fill(socialEmail);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/' && url.search === '');
  };
  // pro-5: no account with the address and no public sign-up, said on the social-verify screen (the
  // device's passkey of the walk stays out of the log-in's autofill, as a visitor who does not pick it)
  await authenticator.setPresence(false);
  await page.goto(`/?${query('pro-5')}`);
  await signInWith('Google');
  await expect(view.getByRole('alert').getByRole('heading', { name: text('errors.social_signup_disabled') })).toBeVisible();
  await stop('social-verify');

  // pro-1: signed up with GitHub; the account page lists the provider and asks before removing it
  await page.goto(`/?${query('pro-1')}`);
  await signInWith('GitHub');
  await button('passkeyAppend.skip').click();
  await expect(page.locator('#host-auth-state')).toHaveText('logged in');
  await page.goto(`/account.html?${query('pro-1')}`);
  const socialDetails = page.locator('#user-details');
  await heading('user.social', socialDetails);
  await stop('account-social', [socialDetails.locator('.cb-row .cb-muted')]);
  await socialDetails.getByRole('button', { name: `${text('user.remove')}: GitHub` }).click();
  await expect(socialDetails.getByRole('dialog', { name: text('user.removeHeader', { value: 'GitHub' }) })).toBeVisible();
  await stop('unlink-dialog', [], '.cb-row .cb-muted');
  await page.keyboard.press('Escape');
  await expect(socialDetails.getByRole('dialog')).toHaveCount(0);
}
