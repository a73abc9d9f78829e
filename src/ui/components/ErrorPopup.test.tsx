import { atom } from 'nanostores';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { CorbadoApp } from '../../core/app';
import { invalidUserHandleType, passkeyChallengeCancelled, recentLoginCancelled, tooManyRequests, unhandledBackendError, unhandledFrontendError } from '../../core/errors';
import type { FlowBlock } from '../../core/process/block';
import { AppContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { ErrorPopup } from './ErrorPopup';

const codeBlock: FlowBlock = { type: 'email-verify', authType: 'signup', data: { identifier: 'ada@example.com' }, alternatives: [] };

function setUp(block: FlowBlock, options: CorbadoApp['options'] = {} as CorbadoApp['options']) {
  const flow = { $block: atom<FlowBlock | undefined>(block), $screen: atom('email-otp-verification'), $error: atom(undefined), dismissError: () => undefined };
  const view = renderInShadow(
    <AppContext.Provider value={{ flow, options } as unknown as CorbadoApp}>
      <ErrorPopup />
    </AppContext.Provider>,
  );
  return { flow, view };
}

describe('ErrorPopup', () => {
  it("shows the failure its block carries, and nothing once the flow has moved to a block without one", () => {
    const { flow, view } = setUp({ ...codeBlock, failure: tooManyRequests(45) });
    expect(view.$('[role=alert]')?.textContent).toBe('Too many attempts. Please try again in less than a minute.');
    act(() => flow.$block.set({ type: 'passkey-appended', authType: 'signup', data: {}, alternatives: [] }));
    expect(view.$('[role=alert]')).toBeNull();
    view.unmount();
  });

  it('shows the generic text for a frontend error on its block', () => {
    const { view } = setUp({ ...codeBlock, failure: unhandledFrontendError(new TypeError('x')) });
    expect(view.$('[role=alert]')?.textContent).toBe('Something went wrong. Please try again later or refresh the page.');
    view.unmount();
  });

  it('[spec 8.unexpected-popup] says the translated message if there is one, else names the support address when configured, else the generic text', () => {
    const support = { customerSupportEmail: 'help@shop.example' } as CorbadoApp['options'];
    const translated = setUp({ ...codeBlock, failure: passkeyChallengeCancelled() }, support);
    expect(translated.view.$('[role=alert]')?.textContent).toBe('The passkey request was cancelled or timed out.');
    translated.view.unmount();
    const withSupport = setUp({ ...codeBlock, failure: unhandledBackendError('strange_failure') }, support);
    expect(withSupport.view.$('[role=alert]')?.textContent).toBe('Something went wrong. Please try again later, refresh the page, or contact help@shop.example.');
    withSupport.view.unmount();
    const generic = setUp({ ...codeBlock, failure: unhandledBackendError('strange_failure') });
    expect(generic.view.$('[role=alert]')?.textContent).toBe('Something went wrong. Please try again later or refresh the page.');
    generic.view.unmount();
  });

  it('[spec 8.ignorable] shows nothing for an error flagged ignorable', () => {
    const { view } = setUp({ ...codeBlock, failure: recentLoginCancelled() }, { customerSupportEmail: 'help@shop.example' } as CorbadoApp['options']);
    expect(recentLoginCancelled().ignorable).toBe(true);
    expect(view.$('[role=alert]')).toBeNull();
    view.unmount();
  });

  it('[spec 8.invalid-user-handle-type] says in its own words that a passkey cannot be made for an identifier type the widget does not know', () => {
    const { view } = setUp({ ...codeBlock, failure: invalidUserHandleType() });
    expect(view.$('[role=alert]')?.textContent).toBe('This account cannot get a passkey here. Please try again later or refresh the page.');
    view.unmount();
  });
});
