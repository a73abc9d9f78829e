import { atom } from 'nanostores';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { RecentLogin } from '../../core/account/recentLogin';
import type { ApiClient } from '../../core/api/client';
import type { CorbadoApp } from '../../core/app';
import { recentLoginCancelled, unhandledBackendError, type CorbadoError } from '../../core/errors';
import { AppContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { UserDetailsView } from './UserDetailsView';

function render(signedIn: boolean, unlinkSocialAccount = vi.fn(async (_id: string) => undefined)) {
  const me = {
    fullName: 'Ada Lovelace',
    identifiers: [
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
      loadMe: vi.fn(async () => undefined),
      loadConfig: vi.fn(async () => undefined),
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
    const view = render(true, unlink);
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
    const view = render(true, vi.fn(async () => Promise.reject(unhandledBackendError('last_login_identifier'))));
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
