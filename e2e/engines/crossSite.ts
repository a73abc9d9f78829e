// README "Where to put the server" in Firefox ESR: the shapes of e2e/crossSiteStack.ts (the API on the
// shop's site, or on another site), with Firefox's default cookie policy (Total Cookie Protection:
// third-party cookies partitioned) and with third-party cookies blocked (network.cookie.cookieBehavior 1).
// Measured per row: whether a prod visitor who signed up by e-mail code is still signed in after the
// short session expired with no page open, and what Corbado.sessionPersistence said. A row fails only
// on a silent sign-out: signed out without the widget having said "short-only".
import { latestMessage, uniqueEmail } from '../kit/corbadoKit';
import { OTHER_SITE, SAME_SITE, SHORT_SESSION_SECONDS, type CrossSiteStack } from '../crossSiteStack';
import { launchFirefox } from './firefox';
import { present, waitFor, type EnginePage } from './page';

export interface CrossSiteRow {
  api: string;
  cookies: string;
  /** Corbado.sessionPersistence right after the sign-up, and after coming back */
  before: string | undefined;
  after: string | undefined;
  stillSignedIn: boolean;
}

const persistence = 'window.Corbado && window.Corbado.sessionPersistence';

async function signUpAndComeBack(page: EnginePage, stack: CrossSiteStack, api: string): Promise<Omit<CrossSiteRow, 'api' | 'cookies'>> {
  const email = uniqueEmail('engine-cross-site');
  await page.goto(`${stack.pageUrl(api)}#register`);
  await page.type(await present(page, { host: '#widget', role: 'textbox', name: 'Email address' }), email);
  await page.click({ host: '#widget', role: 'button', name: 'Continue' });
  await present(page, { host: '#widget', role: 'textbox', name: 'Digit 1 of 6' });
  const { code } = await latestMessage(email, { apiUrl: stack.direct(api) });
  await waitFor(page, 'the focus on the first code cell', "cbFocused('#widget') === 'Digit 1 of 6'");
  await page.keys(code!);
  await waitFor(page, 'the sign-up', 'window.Corbado.isAuthenticated === true');
  const before = await waitFor<string>(page, 'Corbado.sessionPersistence', persistence);
  // no page of the shop open while the short session runs out
  await page.goto(stack.pageUrl(api).replace(/\/[^/]*$/, '/elsewhere'));
  await new Promise((resolve) => setTimeout(resolve, (SHORT_SESSION_SECONDS + 2) * 1000));
  await page.goto(stack.pageUrl(api));
  const stillSignedIn = await waitFor(page, 'the session', 'window.Corbado && window.Corbado.isAuthenticated === true', 10_000).then(
    () => true,
    () => false,
  );
  return { before, after: (await page.evaluate<string | null>(persistence)) ?? undefined, stillSignedIn };
}

/** The four rows in Firefox, one fresh browser each; logs each row as it is measured. */
export async function crossSiteRowsInFirefox(stack: CrossSiteStack): Promise<{ rows: CrossSiteRow[]; silent: CrossSiteRow[] }> {
  const rows: CrossSiteRow[] = [];
  for (const [cookies, cookieBehavior] of [
    ['default (partitioned)', 5],
    ['third-party cookies blocked', 1],
  ] as const) {
    for (const api of [SAME_SITE, OTHER_SITE]) {
      const page = await launchFirefox(stack.pageUrl(api), {
        acceptInsecureCerts: true,
        prefs: { 'network.dns.forceResolve': '127.0.0.1', 'network.cookie.cookieBehavior': cookieBehavior },
      });
      try {
        const row = { api, cookies, ...(await signUpAndComeBack(page, stack, api)) };
        rows.push(row);
        console.info(`  ${row.stillSignedIn ? '✓' : '·'} ${api}, ${cookies}: ${row.stillSignedIn ? 'still signed in' : 'signed out'} after the short session (sessionPersistence ${row.before} → ${row.after})`);
      } finally {
        await page.close();
      }
    }
  }
  return { rows, silent: rows.filter((row) => !row.stillSignedIn && row.before !== 'short-only') };
}
