import { atom } from 'nanostores';
import { describe, expect, it } from 'vitest';
import type { CorbadoApp } from '../../../core/app';
import { unhandledBackendError } from '../../../core/errors';
import type { FlowBlock } from '../../../core/process/block';
import { ErrorPopup } from '../../components/ErrorPopup';
import { AppContext } from '../../context';
import { renderInShadow } from '../../test/renderInShadow';
import { EmailLinkVerificationScreen } from './EmailLinkVerificationScreen';

const linkBlock: FlowBlock = { type: 'email-verify', authType: 'signup', data: { identifier: 'ada@example.com', verificationMethod: 'email-link' }, alternatives: [] };

function render(block: FlowBlock) {
  const flow = { $block: atom(block), $busy: atom(false), $screen: atom('email-link-verification'), $error: atom(undefined), $ceremonyError: atom(undefined) };
  return renderInShadow(
    <AppContext.Provider value={{ flow, options: {} } as unknown as CorbadoApp}>
      <ErrorPopup />
      <EmailLinkVerificationScreen />
    </AppContext.Provider>,
  );
}

describe('EmailLinkVerificationScreen', () => {
  it('[spec 2.email-link-verification] shows the spinner while the link is checked', () => {
    const view = render(linkBlock);
    expect(view.$('h1')?.textContent).toBe('Verifying your email address…');
    expect(view.$('[role=alert]')).toBeNull();
    view.unmount();
  });

  it('[spec 2.email-link-verification] heads its error view with the failure attached to its block, once, instead of spinning on', () => {
    const view = render({ ...linkBlock, failure: unhandledBackendError('internal_error') });
    const alerts = view.$$('[role=alert]');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.querySelector('h1')?.textContent).toBe('Something went wrong. Please try again later or refresh the page.');
    expect(view.$('.cb-popup')).toBeNull();
    view.unmount();
  });
});
