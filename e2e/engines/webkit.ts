// WebKitGTK (Debian's webkit2gtk-driver): its MiniBrowser driven by selenium-webdriver through
// WebKitWebDriver, on an Xvfb display of its own (this MiniBrowser has no headless mode). Selenium is
// given the driver's URL, so it never looks for (or downloads) a driver or a browser itself.
import { Builder, type WebDriver, type WebElement } from 'selenium-webdriver';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../apiInstances';
import { bounded, findExpression, PAGE_HELPERS, steady, type EnginePage, type Target } from './page';

const DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const XVFB = process.env.XVFB_PATH ?? '/usr/bin/Xvfb';

/** Debian's MiniBrowser lives in the multiarch library folder (x86_64-linux-gnu, aarch64-linux-gnu, …). */
export function miniBrowserPath(): string | undefined {
  if (process.env.MINIBROWSER_PATH) return process.env.MINIBROWSER_PATH;
  const lib = '/usr/lib';
  for (const entry of existsSync(lib) ? readdirSync(lib) : []) {
    const candidate = join(lib, entry, 'webkit2gtk-4.1', 'MiniBrowser');
    if (entry.endsWith('-linux-gnu') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Why WebKitGTK cannot run here, or undefined when it can. */
export function webkitMissing(): string | undefined {
  const missing = [
    !existsSync(DRIVER) && `WebKitWebDriver (${DRIVER})`,
    !miniBrowserPath() && 'the WebKitGTK MiniBrowser',
    !existsSync(XVFB) && `Xvfb (${XVFB})`,
  ].filter(Boolean);
  return missing.length ? `no ${missing.join(', ')} (apt-get install webkit2gtk-driver xvfb)` : undefined;
}


/** Xvfb and WebKitWebDriver processes still running: ended with the test process however it exits. */
const running = new Set<ChildProcess>();
process.on('exit', () => running.forEach(stopGroup));

/** Ends a process started detached, with everything it started (its process group). */
function stopGroup(child: ChildProcess | undefined): void {
  if (child) running.delete(child);
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Starts Xvfb on a display number it picks itself (-displayfd) and answers that number once it serves. */
function startXvfb(): Promise<{ child: ChildProcess; display: string }> {
  const child = spawn(XVFB, ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stopGroup(child);
      reject(new Error(`Xvfb did not start within 15 s: ${stderr.trim()}`));
    }, 15_000);
    let written = '';
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      written += chunk.toString();
      if (!written.includes('\n')) return;
      clearTimeout(timer);
      resolve({ child, display: `:${written.trim()}` });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}): ${stderr.trim()}`));
    });
  });
}

async function waitForDriver(url: string, driver: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode})`);
    try {
      const response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('WebKitWebDriver did not answer within 15 s');
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const inPage = (expression: string) => `${PAGE_HELPERS}\nreturn (${expression});`;

export interface WebKitOptions {
  /** `host:port` of an HTTP proxy for every request (e2e/crossSiteStack.ts: the names of its TLS front) */
  proxy?: string;
  /** accept the throw-away certificate of a TLS front made by the test */
  acceptInsecureCerts?: boolean;
  /** the MiniBrowser's cookie policy (its own default: no-third-party, as Safari's) */
  cookiesPolicy?: 'always' | 'no-third-party';
}

export async function launchWebKit(baseUrl: string, options: WebKitOptions = {}): Promise<EnginePage> {
  let xvfb: ChildProcess | undefined;
  let driverProcess: ChildProcess | undefined;
  let driver: WebDriver | undefined;
  const close = async () => {
    const session = driver;
    driver = undefined;
    if (session) {
      // quitting closes the MiniBrowser; the process groups below end whatever does not close in time
      await Promise.race([session.quit().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    stopGroup(driverProcess);
    stopGroup(xvfb);
  };
  try {
    const display = await startXvfb();
    xvfb = display.child;
    const port = await freePort();
    driverProcess = spawn(DRIVER, [`--port=${port}`], { detached: true, stdio: 'ignore', env: { ...process.env, DISPLAY: display.display } });
    running.add(driverProcess);
    const url = `http://127.0.0.1:${port}`;
    await waitForDriver(url, driverProcess);
    driver = await bounded(
      new Builder()
        .usingServer(url)
        // SELENIUM_REMOTE_URL and the like must not send the session elsewhere
        .disableEnvironmentOverrides()
        .withCapabilities({
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': {
            binary: miniBrowserPath(),
            args: [
              '--automation',
              ...(options.proxy ? [`--proxy=http://${options.proxy}`] : []),
              ...(options.acceptInsecureCerts ? ['--ignore-tls-errors'] : []),
              ...(options.cookiesPolicy ? [`--cookies-policy=${options.cookiesPolicy}`] : []),
            ],
          },
          ...(options.acceptInsecureCerts ? { acceptInsecureCerts: true } : {}),
        })
        .build(),
      60_000,
      'starting the MiniBrowser session',
    );
    await driver.manage().setTimeouts({ implicit: 0, pageLoad: 30_000, script: 15_000 });
    const session = driver;
    const element = async (target: Target): Promise<WebElement> => {
      const found = (await session.executeScript(inPage(findExpression(target)))) as WebElement | null;
      if (!found) throw new Error(`No ${target.role} "${target.name}" in ${target.host || 'the page'}`);
      return found;
    };
    const capabilities = await session.getCapabilities();
    const evaluate = <T>(expression: string) => session.executeScript(inPage(expression)) as Promise<T>;
    return {
      version: `${capabilities.getBrowserName()} (WebKitGTK) ${capabilities.getBrowserVersion()}`,
      goto: (path) => session.get(new URL(path, baseUrl).href),
      evaluate,
      click: async (target) => {
        await steady(evaluate, target);
        await (await element(target)).click();
      },
      type: async (target, text) => (await element(target)).sendKeys(text),
      keys: (text) => session.actions().sendKeys(text).perform(),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
