import { describe, expect, it, vi } from 'vitest';
import type { SocialProvider } from '../../core/api/types';
import type { CorbadoApp } from '../../core/app';
import { AppContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { SocialButtons } from './SocialButtons';

function setUp(providers: SocialProvider[]) {
  const flow = { startSocial: vi.fn(async () => undefined) };
  const view = renderInShadow(
    <AppContext.Provider value={{ flow } as unknown as CorbadoApp}>
      <SocialButtons providers={providers} />
    </AppContext.Provider>,
  );
  return { flow, view, buttons: () => view.$$<HTMLButtonElement>('.cb-social-buttons button') };
}

describe('the social section', () => {
  it('[spec 9.social-compact] labels each button in words with up to two providers', () => {
    const { view, buttons } = setUp(['google', 'github']);
    expect(buttons().map((b) => b.textContent)).toEqual(['Continue with Google', 'Continue with GitHub']);
    expect(view.$('.cb-compact')).toBeNull();
    view.unmount();
  });

  it('[spec 9.social-compact] is compact and icon-only with more than two providers, each button still named', () => {
    const { flow, view, buttons } = setUp(['google', 'microsoft', 'github']);
    expect(view.$('.cb-social-buttons.cb-compact')).not.toBeNull();
    expect(buttons().map((b) => b.textContent)).toEqual(['', '', '']);
    expect(buttons().map((b) => b.querySelector('svg') !== null)).toEqual([true, true, true]);
    expect(buttons().map((b) => b.getAttribute('aria-label'))).toEqual(['Continue with Google', 'Continue with Microsoft', 'Continue with GitHub']);
    buttons()[1]!.click();
    expect(flow.startSocial).toHaveBeenCalledWith('microsoft');
    view.unmount();
  });
});
