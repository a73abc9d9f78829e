import { atom } from 'nanostores';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { RecentLogin } from '../../core/account/recentLogin';
import type { ApiClient } from '../../core/api/client';
import type { CorbadoApp } from '../../core/app';
import { recentLoginCancelled, unhandledBackendError, type CorbadoError } from '../../core/errors';
import { addLanguage, configureI18n } from '../../core/i18n/i18n';
import fr from '../../core/i18n/fr.json';
import pl from '../../core/i18n/pl.json';
import { AppContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { UserDetailsView } from './UserDetailsView';

const SESSIONS = [
  { id: 'ses-1', browser: 'Chrome 131', os: 'macOS', created: '2026-11-20T09:30:00', lastUsed: '2026-11-25T08:00:00', current: true },
  { id: 'ses-2', browser: 'Firefox 128', os: 'Windows', created: '2026-11-01T12:00:00', lastUsed: '2026-11-24T12:15:00', current: false },
];

function render(signedIn: boolean, extra: Record<string, unknown> = {}, endSession = vi.fn(async () => undefined), unlinkSocialAccount = vi.fn(async (_id: string) => undefined)) {
  const me = {
    fullName: 'Ada Lovelace',
    ...extra,
    identifiers: (extra.identifiers as unknown[] | undefined) ?? [
      { id: 'ide-1', type: 'username', value: 'ada', status: 'verified' },
      { id: 'ide-2', type: 'email', value: 'ada@example.com', status: 'verified', primary: true },
      { id: 'ide-3', type: 'phone', value: '+4915112345678', status: 'pending' },
    ],
    socialAccounts: [
      { providerType: 'github', identifierValue: 'ada@users.example', avatarUrl: '', fullName: 'Ada at GitHub' },
      { id: 'soc-2', providerType: 'google', identifierValue: 'ada@example.com', avatarUrl: '', fullName: 'Ada at Google' },
    ],
  };
  const app = {
    options: {},
    session: { $user: atom(signedIn ? { sub: 'usr-1', email: 'ada@example.com' } : undefined), $restoring: atom(false) },
    account: {
      $me: atom({ state: 'ready', value: me }),
      $config: atom(undefined),
      $busy: atom(false),
      $sessions: atom({ state: 'ready', value: SESSIONS }),
      loadMe: vi.fn(async () => undefined),
      loadConfig: vi.fn(async () => undefined),
      loadSessions: vi.fn(async () => undefined),
      endSession,
      unlinkSocialAccount,
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

  it.each([
    ['fr', fr, { email: ['Principale', 'Vérifiée', 'Définir comme principale'], phone: ['Principal', 'Vérifié', 'Définir comme principal'], username: ['Principal', 'Vérifié', 'Définir comme principal'] }],
    ['pl', pl, { email: ['Główny', 'Potwierdzony', 'Ustaw jako główny'], phone: ['Główny', 'Potwierdzony', 'Ustaw jako główny'], username: ['Główna', 'Potwierdzona', 'Ustaw jako główną'] }],
  ])('%s: the badges and "Make primary" agree with the noun of their row (une adresse vérifiée, un numéro vérifié, nazwa potwierdzona)', (language, texts, badges) => {
    addLanguage(language, texts);
    configureI18n({ defaultLanguage: language, autoDetectLanguage: false });
    const identifiers = (['email', 'phone', 'username'] as const).flatMap((type) => [
      { id: `${type}-1`, type, value: `${type}-primary`, status: 'verified', primary: true },
      { id: `${type}-2`, type, value: `${type}-other`, status: 'verified' },
    ]);
    const view = render(true, { identifiers });
    try {
      const shown = Object.fromEntries(
        (['email', 'phone', 'username'] as const).map((type) => {
          const row = view.$$('.cb-row').find((r) => r.textContent!.includes(`${type}-primary`))!;
          const other = view.$$('.cb-row').find((r) => r.textContent!.includes(`${type}-other`))!;
          const makePrimary = [...other.querySelectorAll('button')].map((button) => button.textContent).find((text) => /princip|głów/i.test(text!));
          return [type, [...row.querySelectorAll('.cb-badge-pill')].map((badge) => badge.textContent).concat(makePrimary!)];
        }),
      );
      expect(shown).toEqual(badges);
    } finally {
      view.unmount();
      configureI18n({ defaultLanguage: 'en', autoDetectLanguage: false });
    }
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

  it('lists the signed-in devices, this one marked; each other one and all others at once can be signed out, the focus then on the heading', async () => {
    const endSession = vi.fn(async () => undefined);
    const view = render(true, {}, endSession);
    const section = view.$$('.cb-section').find((s) => s.querySelector('h3')?.textContent === 'Signed-in devices')!;
    const rows = [...section.querySelectorAll('.cb-row')];
    expect(rows.map((row) => row.firstElementChild!.firstChild!.textContent)).toEqual(['Chrome 131 on macOS', 'Firefox 128 on Windows']);
    expect(rows[0]!.querySelector('.cb-ok')?.textContent).toBe('This device');
    expect(rows[0]!.querySelector('button')).toBeNull();
    expect(rows[1]!.querySelector('.cb-muted')!.textContent).toMatch(/^Signed in Nov 1, 2026, \d+:00\s?[AP]M, last active Nov 24, 2026, \d+:15\s?[AP]M$/);
    const end = rows[1]!.querySelector('button')!;
    expect(end.getAttribute('aria-label')).toBe('Sign out: Firefox 128 on Windows');
    end.click();
    expect(endSession).toHaveBeenCalledWith('ses-2');
    await vi.waitFor(() => expect(view.shadow.activeElement).toBe(section.querySelector('h3')));
    [...section.querySelectorAll('button')].find((b) => b.textContent === 'Sign out everywhere else')!.click();
    expect(endSession).toHaveBeenLastCalledWith(undefined);
    view.unmount();
  });

  it('[spec 2.user-details-login-warning] without a session shows "Please log in"', () => {
    const view = render(false);
    expect(view.$('[role=status]')?.textContent).toBe('Please log in to see this.');
    expect(view.shadow.textContent).not.toContain('Ada Lovelace');
    view.unmount();
  });
});

describe('a linked provider account', () => {
  const removeGoogle = (view: ReturnType<typeof render>) => view.$$<HTMLButtonElement>('button').find((b) => b.getAttribute('aria-label') === 'Remove: Google');

  it('is unlinked after a confirmation; one the server gives no id cannot be', async () => {
    const unlink = vi.fn(async (_id: string) => undefined);
    const view = render(true, {}, undefined, unlink);
    // the GitHub account came without an id (an older server): nothing to unlink it by
    expect(view.$$('button').find((b) => b.getAttribute('aria-label') === 'Remove: GitHub')).toBeUndefined();
    act(() => removeGoogle(view)!.click());
    const dialog = view.$('dialog')!;
    expect(dialog.textContent).toContain('Remove Google?');
    expect(dialog.textContent).toContain('You will no longer be able to log in with it.');
    await act(async () => [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Remove')!.click());
    expect(unlink).toHaveBeenCalledWith('soc-2');
    expect(view.$('[role=alert]')).toBeNull();
    view.unmount();
  });

  it('says why when the server keeps it as the last way in', async () => {
    const view = render(true, {}, undefined, vi.fn(async () => Promise.reject(unhandledBackendError('last_login_identifier'))));
    act(() => removeGoogle(view)!.click());
    await act(async () => [...view.$('dialog')!.querySelectorAll('button')].find((b) => b.textContent === 'Remove')!.click());
    expect(view.$('[role=alert]')?.textContent).toBe('Verify another way to log in before you remove this one.');
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
