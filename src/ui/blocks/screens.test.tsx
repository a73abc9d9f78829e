// The screens of SPEC.md section 2, "Screens by area", each drawn from its block as the flow holds it,
// with a flow whose actions are recorded (the flow itself is tested in src/core/process).
import { fireEvent } from '@testing-library/dom';
import { atom } from 'nanostores';
import { act, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EmailLinkRequest } from '../../core/api/types';
import type { CorbadoApp } from '../../core/app';
import type { FlowBlock } from '../../core/process/block';
import type { LastUser } from '../../core/process/lastUser';
import type { ScreenName } from '../../core/process/screens';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ComponentUnavailable } from '../components/ComponentUnavailable';
import { Dialog } from '../components/Dialog';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { AppContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { FlowView } from '../views/FlowView';
import { EditIdentifierScreen } from './email-verify/EditIdentifierScreen';
import { EmailLinkApprovalScreen } from './email-verify/EmailLinkApprovalScreen';
import { EmailLinkVerificationScreen } from './email-verify/EmailLinkVerificationScreen';
import { EmailLinkSentScreen } from './email-verify/EmailLinkSentScreen';
import { EmailLinkSuccessScreen } from './email-verify/EmailLinkSuccessScreen';
import { OtpScreen } from './email-verify/OtpScreen';
import { LoginInitScreen } from './login-init/LoginInitScreen';
import { WelcomeBackScreen } from './login-init/WelcomeBackScreen';
import { PasskeyAppendScreen } from './passkey-append/PasskeyAppendScreen';
import { PasskeyBenefitsScreen } from './passkey-append/PasskeyBenefitsScreen';
import { PasskeyErrorScreen } from './passkey-append/PasskeyErrorScreen';
import { PasskeyAppendedScreen } from './passkey-appended/PasskeyAppendedScreen';
import { PasskeyBackgroundScreen } from './passkey-verify/PasskeyBackgroundScreen';
import { ConfirmProcessAbortScreen } from './process-abort/ConfirmProcessAbortScreen';
import { SignupInitScreen } from './signup-init/SignupInitScreen';

const block = (type: FlowBlock['type'], data: Record<string, unknown>, extra: Partial<FlowBlock> = {}): FlowBlock => ({
  type,
  authType: 'signup',
  data,
  alternatives: [],
  ...extra,
});

function fakeFlow(shown: FlowBlock, screen: ScreenName, options: FakeOptions = {}) {
  return {
    $linkRequest: atom(options.linkRequest),
    linkPage: options.linkPage ?? false,
    answerLink: vi.fn(async () => undefined),
    $block: atom(shown),
    $busy: atom(options.busy ?? false),
    $screen: atom(screen),
    $error: atom(undefined),
    $ceremonyError: atom(undefined),
    $appName: atom('Shop'),
    $initState: atom(2),
    $hideBadge: atom(true),
    $linkVerifiedHere: atom(false),
    $lastUser: atom(options.lastUser),
    continueAsLastUser: vi.fn(async () => undefined),
    forgetLastUser: vi.fn(),
    start: vi.fn(async () => undefined),
    attachHistory: vi.fn(() => () => undefined),
    startConditionalUi: vi.fn(async () => undefined),
    stopConditionalUi: vi.fn(),
    switchToAlternative: vi.fn(),
    setScreen: vi.fn(),
    abort: vi.fn(async () => undefined),
    cancelAbort: vi.fn(),
    appendPasskey: vi.fn(async () => undefined),
    loginWithPasskey: vi.fn(async () => undefined),
    skipPasskey: vi.fn(async () => undefined),
    skipBlock: vi.fn(async () => undefined),
    useFallback: vi.fn(async () => undefined),
    fallbacks: vi.fn(() => [{ method: 'email-otp' }]),
    canSkip: vi.fn(() => options.skippable ?? false),
    submitCode: vi.fn(async () => undefined),
    resend: vi.fn(async () => undefined),
    updateIdentifier: vi.fn(async () => undefined),
    continueAfterLink: vi.fn(),
    submitSignup: vi.fn(async () => undefined),
    startSocial: vi.fn(async () => undefined),
  };
}

interface FakeOptions {
  busy?: boolean;
  skippable?: boolean;
  supportEmail?: string;
  linkRequest?: EmailLinkRequest;
  linkPage?: boolean;
  lastUser?: LastUser;
}

function render(node: ReactNode, shown: FlowBlock, screen: ScreenName, options: FakeOptions = {}) {
  const flow = fakeFlow(shown, screen, options);
  const app = { flow, options: { customerSupportEmail: options.supportEmail } } as unknown as CorbadoApp;
  const view = renderInShadow(<AppContext.Provider value={app}>{node}</AppContext.Provider>);
  const buttons = () => view.$$('button').map((b) => b.getAttribute('aria-label') ?? b.textContent?.trim());
  const labels = () => view.$$('label').map((l) => l.textContent);
  const click = (name: string) => act(() => view.$$('button').find((b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name)!.click());
  return { view, flow, buttons, labels, click };
}

const social = (providers: string[]) => ({ providers, status: 'initial' });
const loginData = (kinds: { email?: boolean; username?: boolean; phone?: boolean }, providers: string[] = []) => ({
  identifierValue: '',
  isPhone: false,
  isEmailAvailable: !!kinds.email,
  isUsernameAvailable: !!kinds.username,
  isPhoneAvailable: !!kinds.phone,
  socialData: social(providers),
});
const signupAlternative = block('signup-init', { identifiers: [{ type: 'email', identifier: '' }], socialData: social([]) });
const login = (kinds: Parameters<typeof loginData>[0], providers: string[] = [], signup = true) =>
  block('login-init', loginData(kinds, providers), { authType: 'login', alternatives: signup ? [signupAlternative] : [] });

describe('login-init', () => {
  it('[spec 2.login-init-layout] [spec 2.login-init-social] a header, the app name in the subheader, one field, submit, and social buttons under a divider', () => {
    const { view, buttons } = render(<LoginInitScreen />, login({ email: true }, ['google', 'github']), 'login-init');
    expect(view.$('h1')?.textContent).toBe('Log in');
    expect(view.$('.cb-subtitle, h1 + p')?.textContent).toBe('Welcome back to Shop');
    expect(view.$$('input')).toHaveLength(1);
    expect(view.$('button[type=submit]')?.textContent).toBe('Continue');
    expect(buttons()).toEqual(expect.arrayContaining(['Continue with Google', 'Continue with GitHub']));
    const divider = view.$('.cb-social > .cb-divider')!;
    expect(divider.textContent).toBe('or');
    expect(divider.nextElementSibling?.querySelectorAll('button')).toHaveLength(2);
    view.unmount();
  });

  it('[spec 2.login-init-field-kind] the field is e-mail, username, e-mail-or-username, or phone with a country picker', () => {
    const field = (kinds: Parameters<typeof loginData>[0]) => {
      const { view, labels } = render(<LoginInitScreen />, login(kinds), 'login-init');
      const shown = { labels: labels(), type: view.$<HTMLInputElement>('input')?.type, picker: !!view.$('.cb-country-toggle') };
      view.unmount();
      return shown;
    };
    expect(field({ email: true })).toEqual({ labels: ['Email address'], type: 'email', picker: false });
    expect(field({ username: true })).toEqual({ labels: ['Username'], type: 'text', picker: false });
    expect(field({ email: true, username: true })).toEqual({ labels: ['Email address or username'], type: 'text', picker: false });
    expect(field({ phone: true })).toMatchObject({ labels: ['Phone number'], type: 'tel', picker: true });
  });

  it('[spec 2.login-init-phone-switch] offers the switch to the phone field only when phone and another kind are enabled', () => {
    const both = render(<LoginInitScreen />, login({ email: true, phone: true }), 'login-init');
    expect(both.buttons()).toContain('Use phone number instead');
    both.click('Use phone number instead');
    expect(both.view.$<HTMLInputElement>('input')?.type).toBe('tel');
    expect(both.buttons()).toContain('Use email address instead');
    both.view.unmount();
    for (const kinds of [{ email: true }, { phone: true }]) {
      const one = render(<LoginInitScreen />, login(kinds), 'login-init');
      expect(one.buttons().filter((name) => name?.startsWith('Use '))).toEqual([]);
      one.view.unmount();
    }
  });

  it('[spec 2.login-init-signup-link] links to sign-up only when sign-up is enabled (an alternative)', () => {
    const open = render(<LoginInitScreen />, login({ email: true }), 'login-init');
    open.click('Sign up');
    expect(open.flow.switchToAlternative).toHaveBeenCalledWith('signup-init');
    open.view.unmount();
    const closed = render(<LoginInitScreen />, login({ email: true }, [], false), 'login-init');
    expect(closed.buttons()).not.toContain('Sign up');
    closed.view.unmount();
  });

  it('[spec 2.country-default-us] the phone field starts on the United States, +1', () => {
    const { view } = render(<LoginInitScreen />, login({ phone: true }), 'login-init');
    const toggle = view.$('.cb-country-toggle')!;
    expect(toggle.textContent).toContain('+1');
    expect(toggle.querySelector('.cb-flag')?.textContent).toBe('\u{1F1FA}\u{1F1F8}');
    view.unmount();
  });
});

describe('welcome-back', () => {
  const remembered = (user: LastUser) => render(<WelcomeBackScreen />, login({ email: true }), 'welcome-back', { lastUser: user });

  it('offers the account this browser logged in last: "Welcome back", the identifier, the way it used as the main action, and "Use another account"', () => {
    const { view, buttons, click, flow } = remembered({ value: 'ada@example.com', type: 'email', method: 'email-otp' });
    expect(view.$('h1')?.textContent).toBe('Welcome back');
    expect(view.$('.cb-identifier')?.textContent).toBe('ada@example.com');
    expect(buttons()).toEqual(['Email me a code', 'Use another account']);
    expect(view.$('.cb-primary')?.textContent).toBe('Email me a code');
    click('Email me a code');
    expect(flow.continueAsLastUser).toHaveBeenCalledOnce();
    click('Use another account');
    expect(flow.forgetLastUser).toHaveBeenCalledOnce();
    view.unmount();
  });

  it('names each way in the main action, and shows a phone number as people write it', () => {
    const main = (user: LastUser) => {
      const { view } = remembered(user);
      const shown = [view.$('.cb-identifier')?.textContent, view.$('.cb-primary')?.textContent];
      view.unmount();
      return shown;
    };
    expect(main({ value: 'ada@example.com', type: 'email', method: 'passkey' })).toEqual(['ada@example.com', 'Log in with passkey']);
    expect(main({ value: 'ada@example.com', type: 'email', method: 'email-link' })).toEqual(['ada@example.com', 'Email me a link']);
    expect(main({ value: '+4915112345678', type: 'phone', method: 'phone-otp' })).toEqual(['+49 1511 2345678', 'Text me a code']);
    expect(main({ value: 'ada@example.com', type: 'email', method: 'github' })).toEqual(['ada@example.com', 'Continue with GitHub']);
    expect(main({ value: 'ada_l', type: 'username' })).toEqual(['ada_l', 'Continue']);
  });
});

describe('signup-init', () => {
  const signup = (data: Record<string, unknown>) =>
    block('signup-init', { socialData: social(['google']), ...data }, { alternatives: [block('login-init', loginData({ email: true }), { authType: 'login' })] });

  it('[spec 2.signup-init-fields] shows name, username, e-mail and phone each only when the block data includes it', () => {
    const all = render(
      <SignupInitScreen />,
      signup({ fullName: { fullName: '' }, identifiers: [{ type: 'username', identifier: '' }, { type: 'email', identifier: '' }, { type: 'phone', identifier: '' }] }),
      'signup-init',
    );
    expect(all.labels()).toEqual(['Full name', 'Username', 'Email address', 'Phone number']);
    all.view.unmount();
    const emailOnly = render(<SignupInitScreen />, signup({ identifiers: [{ type: 'email', identifier: '' }] }), 'signup-init');
    expect(emailOnly.labels()).toEqual(['Email address']);
    emailOnly.view.unmount();
  });

  it('[spec 2.signup-init-actions] has a submit button, the social buttons and a link back to log-in', () => {
    const { view, buttons, click, flow } = render(<SignupInitScreen />, signup({ identifiers: [{ type: 'email', identifier: '' }] }), 'signup-init');
    expect(view.$('button[type=submit]')?.textContent).toBe('Continue');
    expect(buttons()).toContain('Continue with Google');
    click('Log in');
    expect(flow.switchToAlternative).toHaveBeenCalledWith('login-init');
    view.unmount();
  });

  describe("the project's own fields", () => {
    const company = { id: 'company', type: 'text', label: { en: 'Company', de: 'Firma' }, required: false, pattern: '[A-Za-z ]+', maxLength: 20 };
    const terms = { id: 'terms', type: 'checkbox', label: { en: 'I accept the [terms of use]', de: 'Ich akzeptiere die [AGB]' }, required: true, url: 'https://shop.example/terms', version: 'v2' };
    const withFields = (fields: unknown[]) => signup({ identifiers: [{ type: 'email', identifier: '' }], signupFields: fields });

    it('shows a text field and a checkbox whose label links the words in brackets to the text', () => {
      const { view, labels } = render(<SignupInitScreen />, withFields([{ ...company }, { ...terms, accepted: false }]), 'signup-init');
      expect(labels()).toEqual(['Email address', 'Company (optional)', 'I accept the terms of use']);
      const link = view.$<HTMLAnchorElement>('.cb-check a')!;
      expect([link.textContent, link.href, link.target, link.rel]).toEqual(['terms of use', 'https://shop.example/terms', '_blank', 'noopener noreferrer']);
      expect(view.$<HTMLInputElement>('input[type=checkbox]')!.getAttribute('aria-required')).toBe('true');
      view.unmount();
    });

    it('checks them before sending: the unticked box and a text off its pattern stop the sign-up with their errors', () => {
      const { view, flow } = render(<SignupInitScreen />, withFields([{ ...company }, { ...terms, accepted: false }]), 'signup-init');
      const [email, text] = view.$$<HTMLInputElement>('input.cb-input');
      act(() => {
        fireEvent.change(email!, { target: { value: 'ada@example.com' } });
        fireEvent.change(text!, { target: { value: 'Acme 42' } });
      });
      act(() => view.$<HTMLButtonElement>('button[type=submit]')!.click());
      expect(flow.submitSignup).not.toHaveBeenCalled();
      expect(view.$$('[role=alert]').map((e) => e.textContent)).toEqual(['Please check this entry: it is not in the expected form.', 'Please accept this to continue.']);
      expect(view.$<HTMLInputElement>('input[type=checkbox]')!.getAttribute('aria-invalid')).toBe('true');
      // social sign-up is held back the same way: a new account needs the answers
      act(() => view.$$('button').find((b) => b.textContent === 'Continue with Google')!.click());
      expect(flow.startSocial).not.toHaveBeenCalled();
      act(() => {
        fireEvent.change(text!, { target: { value: 'Acme' } });
        view.$<HTMLInputElement>('input[type=checkbox]')!.click();
      });
      act(() => view.$<HTMLButtonElement>('button[type=submit]')!.click());
      const answers = [
        { id: 'company', value: 'Acme' },
        { id: 'terms', accepted: true, version: 'v2' },
      ];
      expect(flow.submitSignup).toHaveBeenCalledWith({ email: 'ada@example.com' }, answers);
      act(() => view.$$('button').find((b) => b.textContent === 'Continue with Google')!.click());
      expect(flow.startSocial).toHaveBeenCalledWith('google', answers);
      view.unmount();
    });

    it("shows the server's field errors, unticks a box whose text changed and keeps everything typed", () => {
      const { view, flow } = render(<SignupInitScreen />, withFields([{ ...company }, { ...terms, accepted: false }]), 'signup-init');
      const [email, text] = view.$$<HTMLInputElement>('input.cb-input');
      act(() => {
        fireEvent.change(email!, { target: { value: 'ada@example.com' } });
        fireEvent.change(text!, { target: { value: 'Acme' } });
        view.$<HTMLInputElement>('input[type=checkbox]')!.click();
      });
      const outdated = { code: 'signup_field_outdated', message: 'This text has changed. Please read it again and confirm.' };
      act(() => flow.$block.set(withFields([{ ...company, value: 'Acme' }, { ...terms, version: 'v3', accepted: false, error: outdated }])));
      expect(view.$<HTMLInputElement>('input[type=checkbox]')!.checked).toBe(false);
      expect(view.$('.cb-check [role=alert]')?.textContent).toBe('This text has changed. Please read it again and confirm.');
      expect(view.$$<HTMLInputElement>('input.cb-input').map((i) => i.value)).toEqual(['ada@example.com', 'Acme']);
      view.unmount();
    });
  });
});

describe('email-verify and phone-verify', () => {
  // the resend countdown reads the clock: frozen, so a slow render on a loaded machine cannot show 29s
  beforeEach(() => vi.useFakeTimers({ now: Date.now(), toFake: ['Date'] }));
  afterEach(() => vi.useRealTimers());
  const emailVerify = (method: string) => block('email-verify', { identifier: 'ada@gmail.com', verificationMethod: method });

  it('[spec 2.email-link-sent] email-link-sent: the address with an edit button, resend, and a button opening the mail app', () => {
    const { view, buttons, click, flow } = render(<EmailLinkSentScreen />, emailVerify('email-link'), 'email-link-sent');
    expect(view.shadow.textContent).toContain('ada@gmail.com');
    expect(buttons()).toEqual(['Change email address', 'Resend link in 30s']);
    expect(view.$<HTMLAnchorElement>('a')?.textContent).toBe('Open Gmail');
    click('Change email address');
    expect(flow.setScreen).toHaveBeenCalledWith('edit-email');
    view.unmount();
  });

  it('email-link-sent shows the match code the link shows where it is opened in another browser', () => {
    const { view } = render(<EmailLinkSentScreen />, block('email-verify', { identifier: 'ada@gmail.com', verificationMethod: 'email-link', matchCode: '427' }), 'email-link-sent');
    expect(view.$('.cb-code')?.textContent).toBe('427');
    expect(view.shadow.textContent).toContain('Both pages show this code:');
    view.unmount();
  });

  it('email-link-approval: what the link would approve, and the three answers, each a call only on a click', () => {
    const request: EmailLinkRequest = { authType: 'login', browser: 'Firefox 128', os: 'Windows', age: 130, matchCode: '427' };
    const asked = block('email-verify', { identifier: 'ada@gmail.com', verificationMethod: 'email-link' }, { authType: 'login' });
    const { view, buttons, click, flow } = render(<EmailLinkApprovalScreen />, asked, 'email-link-approval', { linkRequest: request });
    expect(view.$('h1')?.textContent).toBe('Did you ask to log in to Shop?');
    expect(view.$('h1')?.nextElementSibling?.textContent).toBe('Asked 2 minutes ago in Firefox 128 on Windows, not in this browser.');
    expect(view.shadow.textContent).toContain('ada@gmail.com');
    expect(view.$('.cb-code')?.textContent).toBe('427');
    expect(buttons()).toEqual(["Yes, it's me: continue there", "No, I didn't ask for this", 'Log in here instead']);
    expect(flow.answerLink).not.toHaveBeenCalled();
    click("Yes, it's me: continue there");
    click("No, I didn't ask for this");
    click('Log in here instead');
    expect(flow.answerLink.mock.calls).toEqual([['approve'], ['decline'], ['here']]);
    view.unmount();

    // a project that refuses approvals: only "here instead", no code; a sign-up says so
    const refused = render(<EmailLinkApprovalScreen />, { ...asked, authType: 'signup' }, 'email-link-approval', { linkRequest: { ...request, authType: 'signup', age: 5, matchCode: undefined } });
    expect(refused.view.$('h1')?.textContent).toBe('Open this link in the browser where you asked for it');
    expect(refused.view.$('h1')?.nextElementSibling?.textContent).toBe('Asked 5 seconds ago in Firefox 128 on Windows, not in this browser.');
    expect(refused.view.$('.cb-code')).toBeNull();
    expect(refused.buttons()).toEqual(['Sign up here instead']);
    refused.view.unmount();
  });

  it('the link error view offers a new link only to the tab that asked, and none for a declined request', () => {
    const failed = (code: string) => block('email-verify', { identifier: 'ada@gmail.com', verificationMethod: 'email-link', error: { code, message: code } });
    const expired = render(<EmailLinkVerificationScreen />, failed('invalid_challenge_solution_email-link'), 'email-link-verification');
    expect(expired.view.$('h1')?.textContent).toBe('This link has expired');
    expect(expired.buttons()).toEqual(['Resend link', 'Start over']);
    expect(render(<EmailLinkVerificationScreen />, failed('invalid_challenge_solution_email-link'), 'email-link-verification', { linkPage: true }).buttons()).toEqual(['Start over']);
    const declined = render(<EmailLinkVerificationScreen />, failed('email_link_declined'), 'email-link-verification');
    expect(declined.view.$('h1')?.textContent).toBe('Request declined');
    expect(declined.view.$('h1')?.nextElementSibling?.textContent).toBe('Nobody got in with this link.');
    expect(declined.buttons()).toEqual(['Start over']);
  });

  it('[spec 2.edit-email] edit-email: a header, submit labelled by the verification method, and cancel', () => {
    for (const [method, label, back] of [
      ['email-otp', 'Send code', 'email-otp-verification'],
      ['email-link', 'Send link', 'email-link-sent'],
    ] as const) {
      const { view, click, flow } = render(<EditIdentifierScreen type="email" />, emailVerify(method), 'edit-email');
      expect(view.$('h1')?.textContent).toBe('Change email address');
      expect(view.$('button[type=submit]')?.textContent).toBe(label);
      click('Cancel');
      expect(flow.setScreen).toHaveBeenCalledWith(back);
      view.unmount();
    }
  });

  it('[spec 2.phone-otp] phone-otp: six cells for the code, the number with an edit button, and resend', () => {
    const phone = block('phone-verify', { identifier: '+4915112345678', verificationMethod: 'phone-otp' });
    const { view, buttons, click, flow } = render(<OtpScreen channel="phone" />, phone, 'phone-otp');
    expect(view.$$('input')).toHaveLength(6);
    expect(view.shadow.textContent).toContain('+49 1511 2345678');
    expect(buttons()).toEqual(['Change phone number', 'Resend SMS in 30s']);
    click('Change phone number');
    expect(flow.setScreen).toHaveBeenCalledWith('edit-phone');
    view.unmount();
  });

  it('[spec 2.edit-phone] edit-phone: a phone field with submit and cancel', () => {
    const phone = block('phone-verify', { identifier: '+4915112345678', verificationMethod: 'phone-otp' });
    const { view, click, flow } = render(<EditIdentifierScreen type="phone" />, phone, 'edit-phone');
    expect(view.$$<HTMLInputElement>('input').map((i) => i.type)).toEqual(['tel']);
    expect(view.$('button[type=submit]')?.textContent).toBe('Send SMS code');
    click('Cancel');
    expect(flow.setScreen).toHaveBeenCalledWith('phone-otp');
    view.unmount();
  });

  it('[spec 2.link-success-subheaders] the original tab and the new tab read different subheaders; continue only in the original one', () => {
    const verified = emailVerify('email-link');
    const original = render(<EmailLinkSuccessScreen variant="original-tab" />, verified, 'email-link-success');
    const newTab = render(<EmailLinkSuccessScreen variant="new-tab" />, block('continue-on-other-env', {}, { continueReason: 'email-link-verified' }), 'continue-on-other-device');
    const subheader = (view: typeof original.view) => view.$('h1')?.nextElementSibling?.textContent;
    expect(subheader(original.view)).toBe('Your email address is verified. Continue here to finish signing up.');
    expect(subheader(newTab.view)).toBe('Return to where you started signing up to continue. You can close this tab.');
    expect(original.buttons()).toEqual(['Continue']);
    expect(newTab.buttons()).toEqual([]);
    original.view.unmount();
    newTab.view.unmount();
  });
});

describe('passkeys', () => {
  const append = block('passkey-append', { identifierValue: 'ada@example.com', identifierType: 'email' });
  const verify = block('passkey-verify', { identifierValue: 'ada@example.com' }, { authType: 'login' });

  it('[spec 2.passkey-append] passkey-append: create a passkey, "Maybe later" where skippable, and the fallbacks', () => {
    const { buttons, click, flow, view } = render(<PasskeyAppendScreen />, append, 'passkey-append', { skippable: true });
    expect(buttons()).toEqual(expect.arrayContaining(['Create passkey', 'Send email code instead', 'Maybe later']));
    click('Create passkey');
    click('Maybe later');
    click('Send email code instead');
    expect(flow.appendPasskey).toHaveBeenCalledOnce();
    expect(flow.skipPasskey).toHaveBeenCalledOnce();
    expect(flow.useFallback).toHaveBeenCalledWith({ method: 'email-otp' });
    click('What is a passkey?');
    expect(flow.setScreen).toHaveBeenCalledWith('passkey-benefits');
    view.unmount();
  });

  it('[spec 2.edit-user-data] edit-user-data edits the identifier the passkey is made for: e-mail, phone or username', () => {
    for (const [type, input] of [
      ['email', 'email'],
      ['username', 'text'],
      ['phone', 'tel'],
    ] as const) {
      const { view, click, flow } = render(<EditIdentifierScreen type={type} />, append, 'edit-user-data');
      expect(view.$$<HTMLInputElement>('input').map((i) => i.type)).toEqual([input]);
      click('Cancel');
      expect(flow.setScreen).toHaveBeenCalledWith('passkey-append');
      view.unmount();
    }
  });

  it('[spec 2.passkey-append-error] passkey-error of an append: try again, the fallbacks, and skip or else cancel', () => {
    const skippable = render(<PasskeyErrorScreen />, append, 'passkey-error', { skippable: true });
    expect(skippable.buttons()).toEqual(['Try again', 'Send email code instead', 'Maybe later']);
    skippable.click('Try again');
    expect(skippable.flow.appendPasskey).toHaveBeenCalledOnce();
    skippable.view.unmount();
    const required = render(<PasskeyErrorScreen />, append, 'passkey-error');
    expect(required.buttons()).toEqual(['Try again', 'Send email code instead', 'Cancel']);
    required.click('Cancel');
    expect(required.flow.setScreen).toHaveBeenCalledWith('passkey-append');
    required.view.unmount();
  });

  it('[spec 2.passkey-verify-error] passkey-error of a log-in: try again, the fallbacks, and a way back that aborts', () => {
    const { buttons, click, flow, view } = render(<PasskeyErrorScreen />, verify, 'passkey-error');
    expect(buttons()).toEqual(['Try again', 'Send email code instead', 'Cancel']);
    click('Try again');
    expect(flow.loginWithPasskey).toHaveBeenCalledOnce();
    click('Cancel');
    expect(flow.abort).toHaveBeenCalledOnce();
    view.unmount();
  });

  it('[spec 2.passkey-background] [spec 2.initial-screen-passkey-verify] passkey-background starts the log-in by itself once, not while an action runs; it leads to passkey-benefits', () => {
    const { view, flow, click } = render(<PasskeyBackgroundScreen />, verify, 'passkey-background', { busy: true });
    expect(flow.loginWithPasskey).not.toHaveBeenCalled();
    act(() => flow.$busy.set(false));
    expect(flow.loginWithPasskey).toHaveBeenCalledExactlyOnceWith({ automatic: true });
    act(() => flow.$busy.set(true));
    act(() => flow.$busy.set(false));
    act(() => flow.$block.set({ ...verify }));
    expect(flow.loginWithPasskey).toHaveBeenCalledOnce();
    click('What is a passkey?');
    expect(flow.setScreen).toHaveBeenCalledWith('passkey-benefits');
    view.unmount();
  });

  it('[spec 2.passkey-benefits] passkey-benefits, from the offer and from the log-in: the passkey action and back to where it came from', () => {
    for (const [shown, action, back] of [
      [append, 'Create passkey', 'passkey-append'],
      [verify, 'Log in with passkey', 'passkey-background'],
    ] as const) {
      const { view, buttons, click, flow } = render(<PasskeyBenefitsScreen />, shown, 'passkey-benefits');
      expect(view.$('h1')?.textContent).toBe('Passkeys');
      expect(view.$$('.cb-benefits li')).toHaveLength(3);
      expect(buttons()).toEqual([action, 'Back']);
      click(action);
      expect(shown === append ? flow.appendPasskey : flow.loginWithPasskey).toHaveBeenCalledOnce();
      click('Back');
      expect(flow.setScreen).toHaveBeenCalledWith(back);
      view.unmount();
    }
  });

  it('[spec 2.passkey-appended] passkey-appended: a success screen with a continue button', () => {
    const { view, buttons, click, flow } = render(<PasskeyAppendedScreen />, block('passkey-appended', {}), 'passkey-appended');
    expect(view.$('h1')?.textContent).toBe('Passkey created');
    expect(buttons()).toEqual(['Continue']);
    click('Continue');
    expect(flow.skipBlock).toHaveBeenCalledOnce();
    view.unmount();
  });
});

describe('the other screens and pages', () => {
  it('[spec 2.confirm-abort] confirm-process-abort: "Abort Signup?", a header, a subheader, confirm and back', () => {
    const { view, buttons, click, flow } = render(<ConfirmProcessAbortScreen />, block('email-verify', { identifier: 'ada@example.com' }), 'confirm-process-abort');
    expect(view.$('h1')?.textContent).toBe('Abort Signup?');
    expect(view.shadow.textContent).toContain('Going back will restart the signup process and your current progress will be lost.');
    expect(view.shadow.textContent).toContain('Do you wish to complete the current signup first?');
    expect(buttons()).toEqual(['Yes, complete the signup', 'No, start over']);
    click('Yes, complete the signup');
    expect(flow.cancelAbort).toHaveBeenCalledOnce();
    click('No, start over');
    expect(flow.abort).toHaveBeenCalledOnce();
    view.unmount();
  });

  it('[spec 2.completed-renders-nothing] [spec 2.initial-screen-completed] the completed block, on its end screen, draws nothing', () => {
    const { view } = render(<FlowView mode="auth" />, block('completed', {}), 'end');
    // the shadow root holds only the empty element the view was rendered into
    expect(view.shadow.innerHTML).toBe('<div></div>');
    view.unmount();
  });

  it('[spec 2.component-unavailable] component-unavailable: the message with the support contact when there is one, without it otherwise, and Reload', () => {
    const retry = vi.fn();
    const login = block('login-init', {});
    const withSupport = render(<ComponentUnavailable onRetry={retry} />, login, 'login-init', { supportEmail: 'help@shop.example' });
    expect(withSupport.view.shadow.textContent).toContain('contact help@shop.example');
    withSupport.click('Reload');
    expect(retry).toHaveBeenCalledOnce();
    withSupport.view.unmount();
    const without = render(<ComponentUnavailable onRetry={retry} />, login, 'login-init');
    expect(without.view.shadow.textContent).toContain('We could not reach the log-in service. Please reload, or try again in a few minutes.');
    expect(without.view.shadow.textContent).not.toContain('contact');
    expect(without.buttons()).toEqual(['Reload']);
    without.view.unmount();
  });

  it('[spec 2.generic-fallback] a view that fails to draw shows the generic fallback sentence', () => {
    const Broken = () => {
      throw new Error('broken');
    };
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const view = renderInShadow(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(view.$('[role=alert]')?.textContent).toBe('Something went wrong. Please try again in a few moments.');
    view.unmount();
    quiet.mockRestore();
  });
});

describe('part names (README, "Styling with ::part")', () => {
  // the UI project runs in happy-dom, whose import.meta.url is no file: the repository is the working directory
  const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Styling with `::part`'), readme.indexOf('### When the Frontend API fails'));
  const documented = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((match) => match[1]);
  const partsIn = (root: ParentNode) => [...root.querySelectorAll('[part]')].flatMap((element) => element.getAttribute('part')!.split(' '));

  it('the markup carries exactly the parts the README lists', () => {
    const found = new Set<string>();
    // the log-in with social buttons and an error over it, in its view (the card)
    const failed = login({ email: true }, ['google', 'github']);
    const withError = render(<FlowView mode="auth" />, { ...failed, error: { code: 'unknown', message: 'unknown' } }, 'login-init');
    partsIn(withError.view.shadow).forEach((part) => found.add(part));
    withError.view.unmount();
    // the cells of a one-time code
    const code = render(<OtpScreen channel="email" />, block('email-verify', { identifier: 'ada@example.com', verificationMethod: 'email-otp' }), 'email-otp-verification');
    partsIn(code.view.shadow).forEach((part) => found.add(part));
    code.view.unmount();
    // a dialog that deletes
    const dialog = renderInShadow(<Dialog title="Delete passkey?" body="Gone for good." confirm="Delete" cancel="Cancel" danger onConfirm={() => undefined} onCancel={() => undefined} />);
    partsIn(dialog.shadow).forEach((part) => found.add(part));
    dialog.unmount();

    expect(documented.length).toBeGreaterThan(5);
    expect([...found].sort()).toEqual([...documented].sort());
  });

  it('every element of a kind carries its part, on every screen and view (the sources, so that no screen is left out)', () => {
    // class of the element -> its part; buttons take theirs from Button (button-<variant>) and LinkButton
    const PARTS: Record<string, string> = {
      'cb-card': 'container',
      'cb-title': 'heading',
      'cb-control': 'input',
      'cb-otp-cell': 'input',
      'cb-popup': 'error',
      'cb-divider': 'divider',
      'cb-link': 'link',
    };
    const root = join(process.cwd(), 'src/ui');
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((file) => file.endsWith('.tsx') && !file.endsWith('.test.tsx'));
    const missing: string[] = [];
    let checked = 0;
    for (const file of files) {
      const source = readFileSync(join(root, file), 'utf8');
      for (const match of source.matchAll(/className=(?:"|\{`)(cb-[a-z-]+)/g)) {
        const part = PARTS[match[1]!];
        if (!part) continue;
        // the element's opening tag: from its "<" to the ">" that closes it (an arrow's "=>" does not)
        const start = source.lastIndexOf('<', match.index);
        let end = match.index;
        do end = source.indexOf('>', end + 1);
        while (source[end - 1] === '=');
        checked++;
        if (!source.slice(start, end).includes(`part="${part}"`)) missing.push(`${file}: ${source.slice(start, end).split('\n')[0]}`);
      }
    }
    expect(checked).toBeGreaterThan(15);
    expect(missing).toEqual([]);
  });
});
