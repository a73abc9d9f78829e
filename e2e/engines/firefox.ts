// Firefox ESR (Debian's), driven by puppeteer-core over WebDriver BiDi: Firefox speaks it itself, so no
// driver binary, and puppeteer-core never downloads a browser (it has no install step; it launches the
// executable it is given).
import puppeteer, { type Browser, type ElementHandle } from 'puppeteer-core';
import { existsSync } from 'node:fs';
import { findExpression, PAGE_HELPERS, steady, type EnginePage, type Target } from './page';

export function firefoxPath(): string {
  return process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
}

/** Why Firefox cannot run here, or undefined when it can. */
export function firefoxMissing(): string | undefined {
  return existsSync(firefoxPath()) ? undefined : `no Firefox at ${firefoxPath()} (apt-get install firefox-esr, or set FIREFOX_PATH)`;
}

const inPage = (expression: string) => `(function () {${PAGE_HELPERS}\nreturn (${expression});\n})()`;

export interface FirefoxOptions {
  /** more preferences (e2e/crossSiteStack.ts: every name to the loopback front, a cookie policy) */
  prefs?: Record<string, unknown>;
  /** accept the throw-away certificate of a TLS front made by the test */
  acceptInsecureCerts?: boolean;
}

export async function launchFirefox(baseUrl: string, options: FirefoxOptions = {}): Promise<EnginePage> {
  let browser: Browser | undefined = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath(),
    headless: true,
    timeout: 60_000,
    protocolTimeout: 30_000,
    ...(options.acceptInsecureCerts ? { acceptInsecureCerts: true } : {}),
    // no update checks, telemetry or first-run pages while the journeys run
    extraPrefsFirefox: { 'app.update.enabled': false, 'datareporting.policy.dataSubmissionEnabled': false, ...options.prefs },
  });
  const close = async () => {
    const closing = browser;
    browser = undefined;
    if (!closing) return;
    const timer = setTimeout(() => closing.process()?.kill('SIGKILL'), 10_000);
    try {
      await closing.close();
    } catch {
      closing.process()?.kill('SIGKILL');
    } finally {
      clearTimeout(timer);
    }
  };
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    page.setDefaultNavigationTimeout(30_000);
    const element = async (target: Target): Promise<ElementHandle<Element>> => {
      const handle = await page.evaluateHandle(inPage(findExpression(target)));
      const found = handle.asElement() as ElementHandle<Element> | null;
      if (!found) throw new Error(`No ${target.role} "${target.name}" in ${target.host || 'the page'}`);
      return found;
    };
    const evaluate = <T>(expression: string) => page.evaluate(inPage(expression)) as Promise<T>;
    return {
      version: `Firefox ${(await browser.version()).replace(/^firefox\//i, '')}`,
      goto: async (path) => {
        await page.goto(new URL(path, baseUrl).href, { waitUntil: 'load' });
      },
      evaluate,
      click: async (target) => {
        await steady(evaluate, target);
        await (await element(target)).click();
      },
      type: async (target, text) => (await element(target)).type(text),
      keys: (text) => page.keyboard.type(text),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
