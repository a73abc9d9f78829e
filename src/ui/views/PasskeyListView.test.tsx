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

function renderList(passkeys: Passkey[], account: object = {}) {
  const app = {
    options: {},
    session: { $user: atom({ sub: 'usr-1', email: 'ada@example.com' }) },
    account: {
      $passkeys: atom({ state: 'ready', value: passkeys }),
      $busy: atom(false),
      loadPasskeys: vi.fn(async () => undefined),
      recentLogin: new RecentLogin({} as ApiClient),
      ...account,
    },
    flow: {},
  } as unknown as CorbadoApp;
  const view = renderInShadow(
    <AppContext.Provider value={app}>
      <PasskeyListView />
    </AppContext.Provider>,
  );
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

  it('shows the light icon in light mode and the dark one in dark mode, as a decorative image beside the name', () => {
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

  it('names an unknown authenticator "Passkey", and without details from the server shows its own key icon', () => {
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
