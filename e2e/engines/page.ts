// What the cross-engine journeys need from a browser, whichever drives it (Puppeteer over WebDriver
// BiDi for Firefox, Selenium over classic WebDriver for WebKitGTK): open a page, run a script in it,
// and click or type like a visitor on an element found inside a view's open shadow root.

/** An element inside the shadow root of the element `host` (a CSS selector on the page; '': the page itself). */
export interface Target {
  host: string;
  /** 'button' or 'textbox' (an input), found by its accessible name */
  role: 'button' | 'textbox';
  name: string;
}

export interface EnginePage {
  /** the engine and its version, as the browser reports it */
  readonly version: string;
  /** opens a path of the demo pages and waits for its load event */
  goto(path: string): Promise<void>;
  /** the value of a JavaScript expression in the page (the helpers below are in scope); JSON values only */
  evaluate<T>(expression: string): Promise<T>;
  /** a real click on the element (the engine's own input events) */
  click(target: Target): Promise<void>;
  /** focuses the element and types, key by key, wherever the focus then goes */
  type(target: Target, text: string): Promise<void>;
  /** types, key by key, into whatever has the focus now */
  keys(text: string): Promise<void>;
  /** ends the browser and whatever was started for it; safe to call twice */
  close(): Promise<void>;
}

/**
 * Functions defined in the page before each script: `cbRoot(host)` the shadow root of a view (the document for ''),
 * `cbFind(host, role, name)` the visible element of that role and accessible name inside it (or null),
 * `cbFocused(host)` the accessible name of what has the focus inside it, `cbText(host)` the text of the view. Plain JavaScript in a string, so that no compiler helper of
 * the test code ends up in the page.
 */
export const PAGE_HELPERS = `
function cbRoot(host) {
  if (!host) return document;
  var element = document.querySelector(host);
  return element ? element.shadowRoot : null;
}
function cbName(element) {
  var label = element.getAttribute('aria-label');
  if (label) return label.trim();
  if (element.labels && element.labels.length) return element.labels[0].textContent.trim();
  return (element.textContent || '').trim();
}
function cbFind(host, role, name) {
  var root = cbRoot(host);
  if (!root) return null;
  var elements = root.querySelectorAll(role === 'button' ? 'button' : 'input, textarea');
  for (var i = 0; i < elements.length; i++) {
    if (cbName(elements[i]) === name && elements[i].getClientRects().length) return elements[i];
  }
  return null;
}
function cbFocused(host) {
  var root = cbRoot(host);
  var active = root && root.activeElement;
  return active ? cbName(active) : null;
}
function cbText(host) {
  var root = cbRoot(host);
  return root ? root.textContent : '';
}
`;

/** The expression that finds a target in the page (null when it is not there). */
export function findExpression(target: Target): string {
  return `cbFind(${JSON.stringify(target.host)}, ${JSON.stringify(target.role)}, ${JSON.stringify(target.name)})`;
}

/** Polls an expression until it is truthy and answers its value; throws, naming what was awaited, after `timeout` ms. */
export async function waitFor<T>(page: EnginePage, what: string, expression: string, timeout = 15_000): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    last = await page.evaluate<T>(expression);
    if (last) return last as T;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeout} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/**
 * Waits until a target's box stays where it is for 100 ms (a view that is still rendering moves what lies
 * below it: on the account page the "Log out" button moves down while the passkey list loads, and a click
 * aimed at where it was misses or fails). Throws, naming the target, when it keeps moving for `timeout` ms.
 */
export async function steady(evaluate: EnginePage['evaluate'], target: Target, timeout = 5_000): Promise<void> {
  const box = `(function (element) { if (!element) return ''; var r = element.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].join(' '); })(${findExpression(target)})`;
  const deadline = Date.now() + timeout;
  let last = await evaluate<string>(box);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await evaluate<string>(box);
    if (now && now === last) return;
    if (Date.now() > deadline) throw new Error(`${target.role} "${target.name}" in ${target.host || 'the page'} kept moving for ${timeout} ms (last box: ${JSON.stringify(now)})`);
    last = now;
  }
}

/** Waits for a target to be there, then answers it (so that a click or typing never races a render). */
export async function present(page: EnginePage, target: Target, timeout?: number): Promise<Target> {
  await waitFor(page, `${target.role} "${target.name}" in ${target.host}`, `!!${findExpression(target)}`, timeout);
  return target;
}

/** A promise, or a rejection naming `what` once `ms` have passed without it settling. */
export function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
