import { atom } from 'nanostores';
import { describe, expect, it, vi } from 'vitest';
import { RecentLogin } from '../../core/account/recentLogin';
import type { ApiClient } from '../../core/api/client';
import type { CorbadoApp } from '../../core/app';
import { recentLoginCancelled, unhandledBackendError, type CorbadoError } from '../../core/errors';
import { AppContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { UserDetailsView } from './UserDetailsView';

function render(signedIn: boolean, extra: Record<string, unknown> = {}) {
  const me = {
    ...extra,
    fullName: 'Ada Lovelace',
    identifiers: [
      { id: 'ide-1', type: 'username', value: 'ada', status: 'verified' },
      { id: 'ide-2', type: 'email', value: 'ada@example.com', status: 'verified', primary: true },
      { id: 'ide-3', type: 'phone', value: '+4915112345678', status: 'pending' },
    ],
    socialAccounts: [{ providerType: 'github', identifierValue: 'ada@users.example', avatarUrl: '', fullName: 'Ada at GitHub' }],
  };
  const app = {
    options: {},
    session: { $user: atom(signedIn ? { sub: 'usr-1', email: 'ada@example.com' } : undefined), $restoring: atom(false) },
    account: {
      $me: atom({ state: 'ready', value: me }),
      $config: atom(undefined),
      $busy: atom(false),
      loadMe: vi.fn(async () => undefined),
      loadConfig: vi.fn(async () => undefined),
      recentLogin: new RecentLogin({} as ApiClient),
    },
    flow: {},
  } as unknown as CorbadoApp;
  return renderInShadow(
    <AppContext.Provider value={app}>
      <UserDetailsView />
    </AppContext.Provider>,
  );
}

describe('UserDetailsView', () => {
  it('[spec 2.user-details-fields] shows the name, the username, e-mails and phones with verified or pending badges, and social accounts', () => {
    const view = render(true);
    const text = view.shadow.textContent!;
    expect(text).toContain('Ada Lovelace');
    const rows = view.$$('.cb-row').map((row) => ({ text: row.textContent, badge: row.querySelector('.cb-ok, .cb-pending')?.textContent }));
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ text: expect.stringContaining('ada'), badge: 'Verified' }),
        expect.objectContaining({ text: expect.stringContaining('ada@example.com'), badge: 'Verified' }),
        expect.objectContaining({ text: expect.stringContaining('+49'), badge: 'Pending' }),
      ]),
    );
    expect(view.$$('.cb-section-title').map((h) => h.textContent)).toEqual(expect.arrayContaining(['Username', 'Social accounts']));
    expect(text).toContain('Ada at GitHub');
    expect(text).toContain('ada@users.example');
    view.unmount();
  });

  it("shows the answers to the project's sign-up fields: a text, and what was agreed to with its version and date", () => {
    const signupFields = [
      { id: 'company', type: 'text', label: { en: 'Company', de: 'Firma' }, value: 'Acme', answeredAt: '2026-11-25T13:45:00' },
      { id: 'terms', type: 'checkbox', label: { en: 'I accept the [terms]', de: 'Ich akzeptiere die [AGB]' }, accepted: true, version: 'v2', answeredAt: '2026-11-25T13:45:00' },
      { id: 'news', type: 'checkbox', label: { en: 'Newsletter', de: 'Newsletter' }, accepted: false, version: 'n1', answeredAt: '2026-11-25T13:45:00' },
      { id: 'gone', type: 'text', value: 'kept', answeredAt: '2026-11-25T13:45:00' },
    ];
    const view = render(true, { signupFields });
    const section = view.$$('.cb-section').find((s) => s.querySelector('h3')?.textContent === 'Sign-up details')!;
    const date = new Date('2026-11-25T13:45:00Z').toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });
    expect([...section.querySelectorAll('.cb-row')].map((row) => [...row.children].map((c) => c.textContent))).toEqual([
      ['Company', 'Acme'],
      ['I accept the terms', `Accepted on ${date} (version v2)`],
      ['Newsletter', 'Not accepted'],
      ['gone', 'kept'],
    ]);
    view.unmount();
    // none without answers
    const plain = render(true);
    expect(plain.shadow.textContent).not.toContain('Sign-up details');
    plain.unmount();
  });

  it('[spec 2.user-details-login-warning] without a session shows "Please log in"', () => {
    const view = render(false);
    expect(view.$('[role=status]')?.textContent).toBe('Please log in to see this.');
    expect(view.shadow.textContent).not.toContain('Ada Lovelace');
    view.unmount();
  });
});

/** The user details of a logged-in visitor whose profile failed to load with `error`. */
function renderFailed(error: CorbadoError) {
  const app = {
    options: {},
    session: { $user: atom({ sub: 'usr-1', email: 'ada@example.com' }) },
    account: { $me: atom({ state: 'failed', error }), $config: atom(undefined), loadMe: vi.fn(async () => undefined), loadConfig: vi.fn(async () => undefined) },
  } as unknown as CorbadoApp;
  return renderInShadow(
    <AppContext.Provider value={app}>
      <UserDetailsView />
    </AppContext.Provider>,
  );
}

describe('the user details', () => {
  it('[spec 8.load-failures] a failure to load the user is shown, unless it is flagged ignorable', () => {
    const failed = renderFailed(unhandledBackendError('internal_error'));
    expect(failed.$('[role=alert]')?.textContent).toBe('Something went wrong. Please try again later or refresh the page.');
    failed.unmount();
    const ignored = renderFailed(recentLoginCancelled());
    expect(ignored.$('[role=alert]')).toBeNull();
    ignored.unmount();
  });
});
