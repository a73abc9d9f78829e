import { atom } from 'nanostores';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import type { CorbadoApp } from '../../core/app';
import type { FlowBlock } from '../../core/process/block';
import type { InitState } from '../../core/process/flowContext';
import type { ScreenName } from '../../core/process/screens';
import { AppContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { FlowView } from '../views/FlowView';

const block: FlowBlock = { type: 'email-verify', authType: 'signup', data: { identifier: 'ada@example.com' }, alternatives: [] };

/** The auth view on a fake flow that starts as the real one does: loading, no block yet. */
function setUp() {
  const flow = {
    $initState: atom<InitState>(0),
    $block: atom<FlowBlock | undefined>(undefined),
    $screen: atom<ScreenName>('email-link-success'),
    $hideBadge: atom(false),
    $busy: atom(false),
    $error: atom(undefined),
    $linkVerifiedHere: atom(false),
    start: async () => undefined,
    attachHistory: () => () => undefined,
    continueAfterLink: () => undefined,
  };
  const view = renderInShadow(
    <AppContext.Provider value={{ flow, options: {} } as unknown as CorbadoApp}>
      <FlowView mode="auth" />
    </AppContext.Provider>,
  );
  const initialised = () =>
    act(() => {
      flow.$block.set(block);
      flow.$initState.set(2);
    });
  return { view, initialised };
}

describe('the footer badge', () => {
  it('[spec 1.footer-badge] reads "Secured by" and the brand, and links to the site of the provider in a new tab', () => {
    const { view, initialised } = setUp();
    initialised();
    const badge = view.$<HTMLAnchorElement>('footer a')!;
    expect(badge.textContent).toBe('Secured by Corbado');
    expect(badge.querySelector('strong')?.textContent).toBe('Corbado');
    expect(badge.href).toBe('https://www.corbado.com/');
    expect(badge.target).toBe('_blank');
    expect(badge.rel).toContain('noopener');
    view.unmount();
  });

  it('[spec 1.footer-badge-after-init] appears only once the flow has initialised, not while it loads', () => {
    const { view, initialised } = setUp();
    expect(view.$('.cb-spinner, .cb-loading')).not.toBeNull();
    expect(view.$('footer')).toBeNull();
    initialised();
    expect(view.$('footer')).not.toBeNull();
    view.unmount();
  });
});
