import { atom } from 'nanostores';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecentLogin } from '../../core/account/recentLogin';
import type { ApiClient } from '../../core/api/client';
import type { Passkey } from '../../core/api/types';
import type { CorbadoApp } from '../../core/app';
import { setDarkMode } from '../../core/appearance';
import { passkeyAlreadyExists, passkeysNotSupported, recentLoginCancelled, unhandledBackendError, type CorbadoError } from '../../core/errors';
import { AppContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { PasskeyListView } from './PasskeyListView';

// The icons as the server sends them: data URLs of its catalogue, one for a light and one for a dark page.
const svg = (colour: string) => `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><rect width="2" height="2" fill="${colour}"/></svg>`)}`;
const LIGHT = svg('#eee');
const DARK = svg('#222');

function passkey(id: string, aaguidDetails: Passkey['aaguidDetails']): Passkey {
  return {
    id,
    credentialID: `credential-${id}`,
    attestationType: 'none',
    transport: ['internal'],
    backupEligible: true,
    backupState: false,
    authenticatorAAGUID: '00000000-0000-0000-0000-000000000000',
    ...(aaguidDetails ? { aaguidDetails } : {}),
    sourceOS: 'macOS',
    sourceBrowser: 'Chrome 131',
    lastUsed: '2026-11-25T10:00:00',
    created: '2026-11-25T10:00:00',
    status: 'active',
  };
}

/**
 * The list for a signed-in user with these passkeys (none: signed out); creating one fails with `createFails`;
 * `overrides` replace parts of the account.
 */
function renderAccount(passkeys: Passkey[] | undefined, createFails?: () => Error, overrides: object = {}) {
  const account = {
    $passkeys: atom({ state: 'ready', value: passkeys ?? [] }),
    $busy: atom(false),
    loadPasskeys: vi.fn(async () => undefined),
    createPasskey: vi.fn(async () => Promise.reject(createFails?.())),
    deletePasskey: vi.fn(async () => undefined),
    recentLogin: new RecentLogin({} as ApiClient),
    ...overrides,
  };
  const app = {
    options: {},
    session: { $user: atom(passkeys ? { sub: 'usr-1', email: 'ada@example.com' } : undefined), $restoring: atom(false) },
    account,
    flow: {},
  } as unknown as CorbadoApp;
  const view = renderInShadow(
    <AppContext.Provider value={app}>
      <PasskeyListView />
    </AppContext.Provider>,
  );
  const button = (name: string) => view.$$<HTMLButtonElement>('button').find((b) => (b.getAttribute('aria-label') ?? b.textContent) === name);
  return { view, account, button };
}

function renderList(passkeys: Passkey[], account: object = {}) {
  const { view } = renderAccount(passkeys, undefined, account);
  const cards = () =>
    view.$$('.cb-passkey').map((card) => {
      const icon = card.querySelector('.cb-passkey-icon')!;
      return {
        name: card.querySelector('.cb-passkey-name')!.textContent,
        icon: icon instanceof HTMLImageElement ? { src: icon.getAttribute('src'), alt: icon.getAttribute('alt') } : icon.tagName.toLowerCase(),
      };
    });
  return { view, cards };
}

afterEach(() => {
  vi.unstubAllGlobals();
  setDarkMode('off');
});

describe('the passkey list: authenticator names and icons', () => {
  const known = passkey('cre-1', { name: '1Password', iconLight: LIGHT, iconDark: DARK });
  const unknown = passkey('cre-2', { name: 'Passkey', iconLight: svg('#ddd'), iconDark: svg('#333') });

  it('[spec 2.authenticator-names] shows the light icon in light mode and the dark one in dark mode, as a decorative image beside the name', () => {
    setDarkMode('off');
    const { view, cards } = renderList([known]);
    expect(cards()).toEqual([{ name: '1Password', icon: { src: LIGHT, alt: '' } }]);
    act(() => setDarkMode('on'));
    expect(cards()).toEqual([{ name: '1Password', icon: { src: DARK, alt: '' } }]);
    act(() => setDarkMode('off'));
    expect(cards()).toEqual([{ name: '1Password', icon: { src: LIGHT, alt: '' } }]);
    view.unmount();
  });

  it('follows the system colour scheme in auto mode', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(prefers-color-scheme: dark)', addEventListener() {}, removeEventListener() {} }));
    setDarkMode('auto');
    const { view, cards } = renderList([known]);
    expect(cards()[0]!.icon).toEqual({ src: DARK, alt: '' });
    view.unmount();
  });

  it('[spec 2.authenticator-unknown] names an unknown authenticator "Passkey", and without details from the server shows its own key icon', () => {
    setDarkMode('on');
    const { view, cards } = renderList([unknown, passkey('cre-3', undefined), passkey('cre-4', { name: '', iconLight: '', iconDark: 'https://tracker.example/icon.svg' })]);
    expect(cards()).toEqual([
      { name: 'Passkey', icon: { src: unknown.aaguidDetails!.iconDark, alt: '' } },
      { name: 'Passkey', icon: 'svg' },
      // an icon that is not an inline image is not fetched
      { name: 'Passkey', icon: 'svg' },
    ]);
    expect(view.$$('.cb-passkey svg.cb-passkey-icon')[0]!.getAttribute('aria-hidden')).toBe('true');
    view.unmount();
  });
});

describe('the passkey list: what goes wrong', () => {
  /** The create button refused with `error`: the dialog that says so, or none. */
  async function createRefused(error: CorbadoError) {
    const { view } = renderList([], { createPasskey: vi.fn(async () => Promise.reject(error)) });
    const create = view.$$('button').find((button) => /^Create (a )?passkey$/.test(button.textContent ?? ''))!;
    await act(async () => create.click());
    const dialog = view.$('dialog');
    const seen = dialog && {
      header: dialog.querySelector('h2, h3')?.textContent,
      body: dialog.querySelector('p')?.textContent,
      buttons: [...dialog.querySelectorAll('button')].map((button) => button.textContent),
    };
    const ok = dialog && [...dialog.querySelectorAll('button')].find((button) => button.textContent === 'OK');
    if (ok) act(() => ok.click());
    const closed = !view.$('dialog');
    view.unmount();
    return { seen, closed };
  }

  it('[spec 8.passkey-already-exists] "Passkey for this device already exists" is a dialog with a header, a body and a confirm button', async () => {
    expect(await createRefused(passkeyAlreadyExists())).toEqual({
      seen: { header: 'Passkey already exists', body: 'There is already a passkey for this account on this device.', buttons: ['OK'] },
      closed: true,
    });
  });

  it('[spec 8.passkeys-not-supported] "Passkeys are not supported for this device" is the same kind of dialog', async () => {
    expect(await createRefused(passkeysNotSupported())).toEqual({
      seen: { header: 'Passkeys are not supported', body: 'This device or browser cannot create passkeys.', buttons: ['OK'] },
      closed: true,
    });
  });

  it('[spec 8.load-failures] a failure to load the passkeys is shown, unless it is flagged ignorable', () => {
    const failed = renderList([], { $passkeys: atom({ state: 'failed', error: unhandledBackendError('internal_error') }) });
    expect(failed.view.$('[role=alert]')?.textContent).toBe('Something went wrong. Please try again later or refresh the page.');
    expect(failed.view.$('.cb-passkeys')).toBeNull();
    failed.view.unmount();
    const ignored = renderList([], { $passkeys: atom({ state: 'failed', error: recentLoginCancelled() }) });
    expect(ignored.view.$('[role=alert]')).toBeNull();
    ignored.view.unmount();
  });
});

describe('the passkey list: cards, delete and dialogs', () => {
  const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

  it('[spec 2.passkey-list-login-warning] without a session shows "Please log in"', () => {
    const { view, account } = renderAccount(undefined);
    expect(view.$('[role=status]')?.textContent).toBe('Please log in to see this.');
    expect(view.$('.cb-passkeys')).toBeNull();
    expect(account.loadPasskeys).not.toHaveBeenCalled();
    view.unmount();
  });

  it('[spec 2.passkey-list-cards] one card per passkey, or the "no passkeys" message, and the create button either way', () => {
    const two = renderAccount([passkey('cre-1', undefined), passkey('cre-2', undefined)]);
    expect(two.view.$$('.cb-passkey')).toHaveLength(2);
    expect(two.button('Create a passkey')).toBeDefined();
    two.view.unmount();
    const none = renderAccount([]);
    expect(none.view.$$('.cb-passkey')).toHaveLength(0);
    expect(none.view.shadow.textContent).toContain('You have no passkeys yet.');
    expect(none.button('Create a passkey')).toBeDefined();
    none.view.unmount();
  });

  it('[spec 2.passkey-card-fields] a card shows the synced badge only when backed up, the credential id, created with browser and OS, last used, and the status', () => {
    const synced = { ...passkey('cre-1', undefined), backupState: true, lastUsed: '2026-11-26T12:00:00' };
    const { view } = renderAccount([synced, passkey('cre-2', undefined)]);
    const [first, second] = view.$$('.cb-passkey').map((card) => card.textContent!);
    expect(first).toContain('Synced');
    expect(second).not.toContain('Synced');
    expect(first).toContain('Credential ID: credential-cre-1');
    expect(first).toMatch(/Created .*2026.* with Chrome 131 on macOS/);
    expect(first).toMatch(/Last used .*26.*2026/);
    expect(first).toContain('Active');
    view.unmount();
  });

  it('[spec 2.passkey-delete-confirm] deleting asks first; cancel keeps the passkey, confirm deletes it', async () => {
    const { view, account } = renderAccount([passkey('cre-1', undefined)]);
    const trash = () => view.$<HTMLButtonElement>('.cb-passkey button')!;
    act(() => trash().click());
    expect(view.$('dialog')?.textContent).toContain('Delete passkey?');
    act(() => view.$$<HTMLButtonElement>('dialog button').find((b) => b.textContent === 'Cancel')!.click());
    expect(account.deletePasskey).not.toHaveBeenCalled();
    act(() => trash().click());
    act(() => view.$$<HTMLButtonElement>('dialog button').find((b) => b.textContent === 'Delete')!.click());
    await settle();
    expect(account.deletePasskey).toHaveBeenCalledExactlyOnceWith('cre-1');
    view.unmount();
  });

  it('[spec 2.passkey-list-dialogs] creating a passkey shows the passkey-already-exists or the passkeys-not-supported dialog', async () => {
    for (const [failure, title] of [
      [passkeyAlreadyExists, 'Passkey already exists'],
      [passkeysNotSupported, 'Passkeys are not supported'],
    ] as const) {
      const { view, button } = renderAccount([], failure);
      act(() => button('Create a passkey')!.click());
      await settle();
      expect(view.$('dialog')?.textContent).toContain(title);
      view.unmount();
    }
  });
});
