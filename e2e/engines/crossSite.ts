// README "Where to put the server" in Firefox ESR and WebKitGTK: the shapes of e2e/crossSiteStack.ts (the
// API on the shop's site, or on another site), with third-party cookies kept (Firefox's default, Total
// Cookie Protection: partitioned; the MiniBrowser's --cookies-policy=always) and blocked (Firefox's
// network.cookie.cookieBehavior 1; the MiniBrowser's default, no-third-party, as Safari's), there also
// for a project with crossSiteSessions "storage". Firefox maps the names itself
// (network.dns.forceResolve); WebKitGTK reaches them through the stack's CONNECT proxy.
// Measured per row: whether a prod visitor who signed up by e-mail code is still signed in after the
// short session expired with no page open, and what Corbado.sessionPersistence said. A row fails only
// on a silent sign-out: signed out without the widget having said "short-only".
// And per shape (the API on the same site or another, third-party cookies kept or blocked), one GitHub
// sign-in through the development stand-in, as e2e/crossSite.spec.ts does it in Chromium: "Continue
// with GitHub" in the widget, the stand-in's consent page (a new address, vouched for, "Continue"), and
// back on the shop's page signed in. A sign-in row fails unless it completes or the visitor is told (an
// alert on the page where it stopped); a silent stop (no sign-in, nothing said) fails.
import { latestMessage, uniqueEmail } from '../kit/corbadoKit';
import { OTHER_SITE, SAME_SITE, SHORT_SESSION_SECONDS, type CrossSiteStack, type Sessions } from '../crossSiteStack';
import { launchFirefox } from './firefox';
import { launchWebKit } from './webkit';
import { present, waitFor, type EnginePage } from './page';

export interface CrossSiteRow {
  api: string;
  cookies: string;
  /** the project's crossSiteSessions */
  sessions: Sessions;
  /** Corbado.sessionPersistence right after the sign-up, and after coming back */
  before: string | undefined;
  after: string | undefined;
  stillSignedIn: boolean;
}

const persistence = 'window.Corbado && window.Corbado.sessionPersistence';

/** A visitor signed up on the shop's page, gone elsewhere while the short session runs out. */
interface Away {
  before: string | undefined;
  /** when the page left the shop (ms) */
  leftAt: number;
}

async function signUpAndLeave(page: EnginePage, stack: CrossSiteStack, api: string, sessions: Sessions): Promise<Away> {
  const email = uniqueEmail('engine-cross-site');
  const url = stack.pageUrl(api, sessions);
  await page.goto(`${url}#register`);
  await page.type(await present(page, { host: '#widget', role: 'textbox', name: 'Email address' }), email);
  await page.click({ host: '#widget', role: 'button', name: 'Continue' });
  await present(page, { host: '#widget', role: 'textbox', name: 'Digit 1 of 6' });
  const { code } = await latestMessage(email, { apiUrl: stack.direct(api) });
  await waitFor(page, 'the focus on the first code cell', "cbFocused('#widget') === 'Digit 1 of 6'");
  await page.keys(code!);
  await waitFor(page, 'the sign-up', 'window.Corbado.isAuthenticated === true');
  const before = await waitFor<string>(page, 'Corbado.sessionPersistence', persistence);
  // no page of the shop open while the short session runs out
  await page.goto(url.replace(/\/[^/]*$/, '/elsewhere'));
  return { before, leftAt: Date.now() };
}

/** Back on the shop's page once the short session has run out: still signed in? */
async function comeBack(page: EnginePage, stack: CrossSiteStack, api: string, sessions: Sessions, away: Away): Promise<Omit<CrossSiteRow, 'api' | 'cookies' | 'sessions'>> {
  const wait = away.leftAt + (SHORT_SESSION_SECONDS + 2) * 1000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await page.goto(stack.pageUrl(api, sessions));
  const stillSignedIn = await waitFor(page, 'the session', 'window.Corbado && window.Corbado.isAuthenticated === true', 10_000).then(
    () => true,
    () => false,
  );
  return { before: away.before, after: (await page.evaluate<string | null>(persistence)) ?? undefined, stillSignedIn };
}

type Cookies = 'kept' | 'blocked';

/** A fresh browser of the engine on the stack, third-party cookies kept or blocked. */
function launch(engine: 'firefox' | 'webkit', stack: CrossSiteStack, url: string, cookies: Cookies): Promise<EnginePage> {
  if (engine === 'firefox') {
    return launchFirefox(url, { acceptInsecureCerts: true, prefs: { 'network.dns.forceResolve': '127.0.0.1', 'network.cookie.cookieBehavior': cookies === 'kept' ? 5 : 1 } });
  }
  return launchWebKit(url, { acceptInsecureCerts: true, proxy: `127.0.0.1:${stack.proxyPort}`, cookiesPolicy: cookies === 'kept' ? 'always' : 'no-third-party' });
}

export interface SocialRow {
  api: string;
  cookies: string;
  /** signed in on the shop's page, the result secret gone from its address */
  completed: boolean;
  /** where it stopped otherwise, and what the page there said (an alert's text), if anything */
  stoppedAt?: string;
  told?: string;
}

/** An expression's value, or undefined while the page is between documents (a navigation under way). */
async function settled<T>(page: EnginePage, expression: string): Promise<T | undefined> {
  try {
    return (await page.evaluate<T>(expression)) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Polls across navigations until the expression is truthy; undefined after `timeout` ms. */
async function across<T>(page: EnginePage, expression: string, timeout: number): Promise<T | undefined> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await settled<T>(page, expression);
    if (value) return value;
    if (Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The text of an alert on the page, in the document or in the widget's view (the first that says something). */
const alertText = `(function () {
  var roots = [document, cbRoot('#widget')];
  for (var i = 0; i < roots.length; i++) {
    var alerts = roots[i] ? roots[i].querySelectorAll('[role=alert]') : [];
    for (var j = 0; j < alerts.length; j++) if (alerts[j].textContent.trim()) return alerts[j].textContent.trim();
  }
  return null;
})()`;

/** One GitHub sign-in through the stand-in from the shop's page for `api`: completes, or where it stopped and what the visitor was told. */
async function gitHubSignIn(page: EnginePage, stack: CrossSiteStack, api: string): Promise<Omit<SocialRow, 'api' | 'cookies'>> {
  const shop = stack.pageUrl(api);
  await page.goto(shop);
  await page.click(await present(page, { host: '#widget', role: 'button', name: 'Continue with GitHub' }));
  // the widget sends the whole page on (across sites through the API's first-party start) to the stand-in's consent page
  const consent = await across<boolean>(page, "location.pathname.indexOf('/_dev/oauth/github/') === 0 && !!cbFind('', 'button', 'Continue')", 15_000);
  if (consent) {
    await page.evaluate("(document.getElementById('email').value = '', true)");
    await page.type({ host: '', role: 'textbox', name: 'Email' }, uniqueEmail('engine-github'));
    await page.evaluate("(document.querySelector('input[name=vouched]').checked = true)");
    await page.click({ host: '', role: 'button', name: 'Continue' });
    const completed = await across<boolean>(
      page,
      `location.href.indexOf(${JSON.stringify(shop)}) === 0 && location.search.indexOf('cbo_social_result') < 0 && window.Corbado && window.Corbado.isAuthenticated === true`,
      15_000,
    );
    if (completed) return { completed: true };
  }
  const stoppedAt = (await settled<string>(page, 'location.href')) ?? 'between pages';
  const told = (await settled<string>(page, alertText)) ?? undefined;
  return { completed: false, stoppedAt: consent ? stoppedAt : `${stoppedAt} (the stand-in's consent page was never reached)`, ...(told ? { told } : {}) };
}

/** The provider sign-in rows in one engine, one fresh browser per shape; logs each row as it is measured. */
export async function socialRows(engine: 'firefox' | 'webkit', stack: CrossSiteStack): Promise<{ rows: SocialRow[]; silent: SocialRow[] }> {
  const rows: SocialRow[] = [];
  for (const cookies of ['kept', 'blocked'] as const) {
    for (const api of [SAME_SITE, OTHER_SITE]) {
      const page = await launch(engine, stack, stack.pageUrl(api), cookies);
      try {
        const row = { api, cookies: `third-party cookies ${cookies}`, ...(await gitHubSignIn(page, stack, api)) };
        rows.push(row);
        const outcome = row.completed ? 'completes' : `stopped at ${row.stoppedAt}${row.told ? `, told: "${row.told}"` : ', nothing said'}`;
        console.info(`  ${row.completed ? '✓' : row.told ? '·' : '✗'} ${api}, ${row.cookies}: the GitHub sign-in ${outcome}`);
      } finally {
        await page.close();
      }
    }
  }
  return { rows, silent: rows.filter((row) => !row.completed && !row.told) };
}

/**
 * The rows in one engine, one fresh browser each; logs each row as it is measured. The visitors sign up
 * one after the other and then are all away at once: the short sessions run out side by side, not one
 * wait per row.
 */
export async function crossSiteRows(engine: 'firefox' | 'webkit', stack: CrossSiteStack): Promise<{ rows: CrossSiteRow[]; silent: CrossSiteRow[] }> {
  const shapes = [
    ['kept', SAME_SITE, 'short-only'],
    ['kept', OTHER_SITE, 'short-only'],
    ['blocked', SAME_SITE, 'short-only'],
    ['blocked', OTHER_SITE, 'short-only'],
    ['blocked', OTHER_SITE, 'storage'],
  ] as const;
  const rows: CrossSiteRow[] = [];
  const pages: EnginePage[] = [];
  try {
    const away: Away[] = [];
    for (const [cookies, api, sessions] of shapes) {
      const page = await launch(engine, stack, stack.pageUrl(api, sessions), cookies);
      pages.push(page);
      away.push(await signUpAndLeave(page, stack, api, sessions));
    }
    for (const [i, [cookies, api, sessions]] of shapes.entries()) {
      const row = { api, cookies: `third-party cookies ${cookies}`, sessions, ...(await comeBack(pages[i]!, stack, api, sessions, away[i]!)) };
      rows.push(row);
      console.info(
        `  ${row.stillSignedIn ? '✓' : '·'} ${api}, ${row.cookies}, crossSiteSessions ${sessions}: ${row.stillSignedIn ? 'still signed in' : 'signed out'} after the short session (sessionPersistence ${row.before} → ${row.after})`,
      );
    }
  } finally {
    await Promise.allSettled(pages.map((page) => page.close()));
  }
  return { rows, silent: rows.filter((row) => !row.stillSignedIn && row.before !== 'short-only') };
}
