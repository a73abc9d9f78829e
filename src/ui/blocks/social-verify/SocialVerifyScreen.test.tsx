import { atom } from 'nanostores';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CorbadoApp } from '../../../core/app';
import type { FlowBlock } from '../../../core/process/block';
import { socialProviderUnderWay } from '../../../core/process/socialProviderUnderWay';
import { storageKeys, writeItem } from '../../../core/storage';
import { ErrorPopup } from '../../components/ErrorPopup';
import { AppContext } from '../../context';
import { renderInShadow } from '../../test/renderInShadow';
import { SocialVerifyScreen } from './SocialVerifyScreen';

const social = { providers: ['google'], status: 'finished' };
const loginBlock: FlowBlock = { type: 'login-init', authType: 'login', data: { socialData: social }, alternatives: [] };

function render(block: FlowBlock, busy: boolean) {
  const flow = {
    $block: atom(block),
    $busy: atom(busy),
    $screen: atom('social-verify'),
    $error: atom(undefined),
    leaveSocialVerify: vi.fn(),
    // the core's reading of the provider kept across the provider's page
    socialProvider: socialProviderUnderWay,
  };
  const view = renderInShadow(
    <AppContext.Provider value={{ flow, options: {} } as unknown as CorbadoApp}>
      <ErrorPopup />
      <SocialVerifyScreen />
    </AppContext.Provider>,
  );
  return { view, flow };
}

afterEach(() => writeItem(storageKeys.socialLogin, undefined));

describe('[spec 2.social-verify] SocialVerifyScreen', () => {
  it('names the provider over a spinner while the round trip runs', () => {
    writeItem(storageKeys.socialLogin, 'github');
    const { view } = render(loginBlock, true);
    expect(view.$('h1')?.textContent).toBe('Signing in with GitHub…');
    expect(view.$('[role=alert]')).toBeNull();
    view.unmount();
  });

  it('heads its error view with the translated error, once (no popup), and Back leaves it', () => {
    writeItem(storageKeys.socialLogin, 'google');
    const error = { code: 'social_signup_disabled', message: 'disabled' };
    const { view, flow } = render({ ...loginBlock, error, data: { ...loginBlock.data, error } }, false);
    const alerts = view.$$('[role=alert]');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.querySelector('h1')?.textContent).toBe('There is no account for this address, and this app does not allow new sign-ups.');
    expect(view.$('.cb-popup')).toBeNull();
    const back = view.$$('button').find((b) => b.textContent === 'Back')!;
    act(() => back.click());
    expect(flow.leaveSocialVerify).toHaveBeenCalledOnce();
    view.unmount();
  });
});
