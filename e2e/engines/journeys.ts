// The main journeys, the same in every engine: the view styled in its shadow root, sign-up by e-mail
// code, log-out and log-in by e-mail code, the account page; and where the engine has no WebAuthn, the
// passkey offers left out cleanly. Against pro-1 (e-mail code at sign-up, full name, passkeys).
import { latestMessage, outboxMessages, uniqueEmail, type OutboxMessage } from '../kit/corbadoKit';
import { findExpression, present, waitFor, type EnginePage, type Target } from './page';
import { signUpWithPasskeyElsewhere } from './passkeyUser';

export interface Step {
  name: string;
  run(): Promise<void>;
}

export interface EngineExpectations {
  /** whether the engine has WebAuthn (window.PublicKeyCredential) */
  webAuthn: boolean;
}

const auth: Target['host'] = '#widget';
const button = (name: string, host = auth): Target => ({ host, role: 'button', name });
const textbox = (name: string, host = auth): Target => ({ host, role: 'textbox', name });

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/**
 * Records in the page, from now until it unloads, every heading and alert the auth view shows and every
 * uncaught error or rejection, so that a journey can tell which screens it went through.
 */
const RECORD = `(function () {
  var seen = (window.cbSeen = { screens: [], alerts: [], errors: [] });
  var root = cbRoot(${JSON.stringify(auth)});
  var note = function () {
    root.querySelectorAll('h1, h2, h3').forEach(function (element) {
      var text = element.textContent.trim();
      if (text && seen.screens.indexOf(text) < 0) seen.screens.push(text);
    });
    root.querySelectorAll('[role=alert]').forEach(function (element) {
      var text = element.textContent.trim();
      if (text && seen.alerts.indexOf(text) < 0) seen.alerts.push(text);
    });
  };
  new MutationObserver(note).observe(root, { subtree: true, childList: true, characterData: true });
  window.addEventListener('error', function (event) { seen.errors.push(String(event.message)); });
  window.addEventListener('unhandledrejection', function (event) { seen.errors.push(String(event.reason && event.reason.message || event.reason)); });
  note();
  return true;
})()`;

interface Seen {
  screens: string[];
  alerts: string[];
  errors: string[];
}

const hostText = (id: string) => `(document.getElementById(${JSON.stringify(id)}) || {}).textContent || ''`;

async function authState(page: EnginePage, state: 'logged in' | 'logged out') {
  await waitFor(page, `the host page to see "${state}"`, `${hostText('host-auth-state')} === ${JSON.stringify(state)}`);
}

/** Waits for Corbado.user, as the host page shows it, to hold all the given values. */
async function hostUser(page: EnginePage, ...values: string[]) {
  const text = hostText('host-user');
  await waitFor(page, `Corbado.user with ${values.join(', ')}`, `[${values.map((value) => JSON.stringify(value)).join(', ')}].every(function (value) { return (${text}).indexOf(value) >= 0; })`);
}

/**
 * Types the code on the keyboard alone: the code screen puts the focus on the first of the six cells by
 * itself, and the widget moves it on, key by key.
 */
async function enterCode(page: EnginePage, message: OutboxMessage) {
  check(message.code && /^\d{6}$/.test(message.code), `the outbox message has no six-digit code: ${JSON.stringify(message)}`);
  await waitFor(page, 'the focus on the first code cell', `cbFocused(${JSON.stringify(auth)}) === 'Digit 1 of 6'`);
  await page.keys(message.code);
}

/** No error shown, nothing thrown: what every journey must have seen. */
function checkNoError(journey: Seen | undefined, which: string): asserts journey {
  check(journey, `${which} recorded nothing`);
  check(!journey.alerts.length, `${which} showed an error: ${journey.alerts.join(' / ')}`);
  check(!journey.errors.length, `${which} threw: ${journey.errors.join(' / ')}`);
}

/** Neither a passkey screen nor an error: what a journey in an engine without WebAuthn must have seen. */
function checkNoPasskeyOffer(journey: Seen | undefined, which: string) {
  checkNoError(journey, which);
  check(!journey.screens.some((screen) => /passkey/i.test(screen)), `${which} offered a passkey: ${journey.screens.join(' / ')}`);
}

/**
 * The log-in's field. A browser that logged in before is offered that account first ("Welcome back"):
 * "Use another account" shows the field.
 */
async function loginField(page: EnginePage): Promise<Target> {
  const field = textbox('Email address');
  const other = button('Use another account');
  const shown = await waitFor<string>(page, 'the log-in or the welcome-back screen', `${findExpression(field)} ? 'field' : ${findExpression(other)} ? 'other' : ''`);
  if (shown === 'other') await page.click(other);
  return present(page, field);
}

/** Logs in by e-mail code on the log-in page; `after`: the id of the newest message before. */
async function logInByEmailCode(page: EnginePage, api: string, email: string, after: string | undefined): Promise<Seen> {
  await page.goto('/login.html');
  await page.evaluate(RECORD);
  await page.type(await loginField(page), email);
  await page.click(button('Continue'));
  await waitFor(page, 'the code screen', `cbText(${JSON.stringify(auth)}).indexOf('Enter your code') >= 0`);
  await enterCode(page, await latestMessage(email, { after, apiUrl: api }));
  await authState(page, 'logged in');
  await hostUser(page, email);
  return page.evaluate<Seen>('window.cbSeen');
}

async function logOutOnAccountPage(page: EnginePage, email: string) {
  await page.goto('/account.html');
  await authState(page, 'logged in');
  // as a visitor would, once the page has shown the account: the views above the button load first
  await waitFor(page, 'the user details and the passkey list, loaded', `cbText('#user-details').indexOf(${JSON.stringify(email)}) >= 0 && cbText(${JSON.stringify(auth)}).indexOf('Your passkeys') >= 0 && !cbRoot('#user-details').querySelector('.cb-spinner') && !cbRoot(${JSON.stringify(auth)}).querySelector('.cb-spinner')`);
  await page.click(await present(page, button('Log out', '')));
  await authState(page, 'logged out');
}

export function journeys(page: EnginePage, urls: { api: string; demo: string }, expected: EngineExpectations): Step[] {
  const { api } = urls;
  const email = uniqueEmail('engines');
  const name = 'Engine Tester';
  let signUpMessage: OutboxMessage | undefined;
  const seen: Seen[] = [];

  const steps: Step[] = [
    {
      name: 'the view renders styled in its open shadow root',
      async run() {
        await page.goto('/#register');
        await present(page, button('Continue'));
        const view = await page.evaluate<Record<string, unknown>>(`(function () {
          var host = document.querySelector(${JSON.stringify(auth)});
          var style = getComputedStyle(cbFind(${JSON.stringify(auth)}, 'button', 'Continue'));
          return {
            mode: host.shadowRoot.mode,
            lightChildren: host.children.length,
            background: style.backgroundColor,
            color: style.color,
            radius: style.borderTopLeftRadius,
            webAuthn: typeof window.PublicKeyCredential === 'function',
          };
        })()`);
        check(view.mode === 'open' && view.lightChildren === 0, `the view is not alone in an open shadow root: ${JSON.stringify(view)}`);
        // the widget's own primary colour, text colour and radius (styles/widget.css), not the engine's button
        check(view.background === 'rgb(25, 83, 255)', `the primary button's background is ${String(view.background)}, not the widget's rgb(25, 83, 255)`);
        check(view.color === 'rgb(255, 255, 255)', `the primary button's text colour is ${String(view.color)}`);
        check(view.radius === '10px', `the primary button's corner radius is ${String(view.radius)}, not 10px`);
        check(view.webAuthn === expected.webAuthn, `WebAuthn is ${view.webAuthn ? '' : 'not '}there, expected the opposite`);
      },
    },
    {
      name: 'sign-up by e-mail code',
      async run() {
        await page.evaluate(RECORD);
        await page.type(await present(page, textbox('Full name')), name);
        await page.type(await present(page, textbox('Email address')), email);
        await page.click(button('Continue'));
        await waitFor(page, 'the code screen', `cbText(${JSON.stringify(auth)}).indexOf('Verify your email address') >= 0`);
        signUpMessage = await latestMessage(email, { apiUrl: api });
        await enterCode(page, signUpMessage);
        await authState(page, 'logged in');
        await hostUser(page, email, name);
        seen.push(await page.evaluate<Seen>('window.cbSeen'));
        checkNoError(seen[0], 'the sign-up');
      },
    },
    {
      name: 'log-out, then log-in by e-mail code',
      async run() {
        await logOutOnAccountPage(page, email);
        seen.push(await logInByEmailCode(page, api, email, signUpMessage?.id));
        checkNoError(seen[1], 'the log-in');
      },
    },
    {
      name: 'the account page shows the user',
      async run() {
        await page.goto('/account.html');
        await waitFor(
          page,
          'the user details with the name and the verified address',
          `(function (text) { return text.indexOf(${JSON.stringify(email)}) >= 0 && text.indexOf(${JSON.stringify(name)}) >= 0 && text.indexOf('Verified') >= 0; })(cbText('#user-details'))`,
        );
        // the host's backend verified the session the widget holds
        await waitFor(page, "the host backend's answer", `${hostText('host-backend')}.indexOf(${JSON.stringify(`verified e-mail ${email}`)}) >= 0`);
        await waitFor(page, 'the passkey list', `cbText(${JSON.stringify(auth)}).indexOf('Your passkeys') >= 0`);
      },
    },
  ];

  if (!expected.webAuthn) {
    steps.push({
      name: 'without WebAuthn the passkey offers are left out, without an error',
      async run() {
        checkNoPasskeyOffer(seen[0], 'the sign-up');
        checkNoPasskeyOffer(seen[1], 'the log-in');
        // asked for one on the account page, the widget says so instead of failing
        await page.click(await present(page, button('Create a passkey')));
        await waitFor(page, 'the "not supported" dialog', `cbText(${JSON.stringify(auth)}).indexOf('Passkeys are not supported') >= 0`);
        await page.click(await present(page, button('OK')));
        await waitFor(page, 'the dialog to close', `cbText(${JSON.stringify(auth)}).indexOf('Passkeys are not supported') < 0`);
        const events = await page.evaluate<string>(hostText('host-events'));
        check(!/fail/i.test(events), `the host page saw a failure: ${events}`);
      },
    });
    steps.push({
      name: 'without WebAuthn an account with a passkey from another device logs in by e-mail code, no passkey screen',
      async run() {
        const other = uniqueEmail('engines-passkey');
        await signUpWithPasskeyElsewhere(api, urls.demo, other, 'Passkey Elsewhere');
        const signUpCode = (await outboxMessages(other, { apiUrl: api }))[0];
        await logOutOnAccountPage(page, email);
        checkNoPasskeyOffer(await logInByEmailCode(page, api, other, signUpCode?.id), 'the log-in');
      },
    });
  }
  return steps;
}
