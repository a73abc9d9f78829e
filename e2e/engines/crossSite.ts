// README "Where to put the server" in Firefox ESR and WebKitGTK: the shapes of e2e/crossSiteStack.ts (the
// API on the shop's site, or on another site), with third-party cookies kept (Firefox's default, Total
// Cookie Protection: partitioned; the MiniBrowser's --cookies-policy=always) and blocked (Firefox's
// network.cookie.cookieBehavior 1; the MiniBrowser's default, no-third-party, as Safari's), there also
// for a project with crossSiteSessions "storage". Firefox maps the names itself
// (network.dns.forceResolve); WebKitGTK reaches them through the stack's CONNECT proxy.
// Measured per row: whether a prod visitor who signed up by e-mail code is still signed in after the
// short session expired with no page open, and what Corbado.sessionPersistence said. A row fails only
// on a silent sign-out: signed out without the widget having said "short-only".
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

async function signUpAndComeBack(page: EnginePage, stack: CrossSiteStack, api: string, sessions: Sessions): Promise<Omit<CrossSiteRow, 'api' | 'cookies' | 'sessions'>> {
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
  await new Promise((resolve) => setTimeout(resolve, (SHORT_SESSION_SECONDS + 2) * 1000));
  await page.goto(url);
  const stillSignedIn = await waitFor(page, 'the session', 'window.Corbado && window.Corbado.isAuthenticated === true', 10_000).then(
    () => true,
    () => false,
  );
  return { before, after: (await page.evaluate<string | null>(persistence)) ?? undefined, stillSignedIn };
}

type Cookies = 'kept' | 'blocked';

/** A fresh browser of the engine on the stack, third-party cookies kept or blocked. */
function launch(engine: 'firefox' | 'webkit', stack: CrossSiteStack, url: string, cookies: Cookies): Promise<EnginePage> {
  if (engine === 'firefox') {
    return launchFirefox(url, { acceptInsecureCerts: true, prefs: { 'network.dns.forceResolve': '127.0.0.1', 'network.cookie.cookieBehavior': cookies === 'kept' ? 5 : 1 } });
  }
  return launchWebKit(url, { acceptInsecureCerts: true, proxy: `127.0.0.1:${stack.proxyPort}`, cookiesPolicy: cookies === 'kept' ? 'always' : 'no-third-party' });
}

/** The rows in one engine, one fresh browser each; logs each row as it is measured. */
export async function crossSiteRows(engine: 'firefox' | 'webkit', stack: CrossSiteStack): Promise<{ rows: CrossSiteRow[]; silent: CrossSiteRow[] }> {
  const shapes = [
    ['kept', SAME_SITE, 'short-only'],
    ['kept', OTHER_SITE, 'short-only'],
    ['blocked', SAME_SITE, 'short-only'],
    ['blocked', OTHER_SITE, 'short-only'],
    ['blocked', OTHER_SITE, 'storage'],
  ] as const;
  const rows: CrossSiteRow[] = [];
  for (const [cookies, api, sessions] of shapes) {
    const page = await launch(engine, stack, stack.pageUrl(api, sessions), cookies);
    try {
      const row = { api, cookies: `third-party cookies ${cookies}`, sessions, ...(await signUpAndComeBack(page, stack, api, sessions)) };
      rows.push(row);
      console.info(
        `  ${row.stillSignedIn ? '✓' : '·'} ${api}, ${row.cookies}, crossSiteSessions ${sessions}: ${row.stillSignedIn ? 'still signed in' : 'signed out'} after the short session (sessionPersistence ${row.before} → ${row.after})`,
      );
    } finally {
      await page.close();
    }
  }
  return { rows, silent: rows.filter((row) => !row.stillSignedIn && row.before !== 'short-only') };
}
