import { describe, expect, it } from 'vitest';
import type { FlowBlock } from '../../core/process/block';
import { loadingFlowView } from '../test/loadingFlowView';

const block: FlowBlock = { type: 'email-verify', authType: 'signup', data: { identifier: 'ada@example.com' }, alternatives: [] };

/** The auth view on a fake flow that starts as the real one does: loading, no block yet. */
const setUp = () => loadingFlowView(block, 'email-link-success');

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
