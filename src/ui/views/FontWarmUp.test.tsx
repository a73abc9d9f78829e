// While the start-up answer is awaited, the loading card lays out a few letters in each font of the
// first screen, unseen and unheard, so that the system font's faces are found and loaded then and not
// in the layout after the answer (README, "A fresh visitor without a preflight"). The fonts are read
// from the stylesheet, so a changed size or weight of the first screen's text fails here until the
// warm-up follows it.
import { describe, expect, it } from 'vitest';
import type { FlowBlock } from '../../core/process/block';
import css from '../styles/widget.css?raw';
import { loadingFlowView } from '../test/loadingFlowView';

/** font-size and font-weight of a rule (the root's size and the normal weight where it names none) */
function fontOf(selector: string): string {
  const body = new RegExp(`(?:^|\\n)${selector.replace(/[.]/g, '\\.')} \\{([^}]*)\\}`).exec(css)?.[1];
  if (body === undefined) throw new Error(`no rule ${selector} in widget.css`);
  const size = /font-size: (\d+)px/.exec(body)?.[1] ?? '15';
  const weight = /font-weight: (\d+)/.exec(body)?.[1] ?? '400';
  return `${size}px ${weight}`;
}

const block: FlowBlock = { type: 'email-verify', authType: 'signup', data: { identifier: 'ada@example.com' }, alternatives: [] };

describe('the font warm-up of the loading card', () => {
  it('lays out text in the size and weight of the first screen\'s heading, labels, buttons, hints and body, hidden from sight and from assistive technology', () => {
    expect(css).toMatch(/\.cb-root \{[^}]*font-size: 15px;/);
    const { view, initialised } = loadingFlowView(block, 'email-link-success');
    const warm = view.$('.cb-loading [aria-hidden="true"]');
    expect(warm?.className).toBe('cb-sr');
    const fonts = [...warm!.querySelectorAll('span')].map((span) => {
      expect(span.textContent).not.toBe('');
      return `${span.style.fontSize} ${span.style.fontWeight}`;
    });
    for (const selector of ['.cb-title', '.cb-label', '.cb-button', '.cb-muted']) expect(fonts, selector).toContain(fontOf(selector));
    expect(fonts).toContain('15px 400');
    // a screen shown has none of it
    initialised();
    expect(view.$('[aria-hidden="true"].cb-sr')).toBeNull();
    view.unmount();
  });
});
