import { atom } from 'nanostores';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CorbadoApp } from '../../core/app';
import { unhandledFrontendError, type CorbadoError } from '../../core/errors';
import type { SessionUser } from '../../core/session/session';
import { AppContext, useApp } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { accountView, ErrorBoundary } from './ErrorBoundary';

const SENTENCE = 'Something went wrong. Please try again in a few moments.';

function Broken(): never {
  throw new Error('render failed');
}

afterEach(() => vi.restoreAllMocks());

describe('the error boundary', () => {
  it('[spec 8.error-boundary] shows "Something went wrong. Please try again in a few moments." while a global error exists', () => {
    const view = renderInShadow(
      <ErrorBoundary globalError={unhandledFrontendError(new Error('start-up failed'))}>
        <p className="child">the view</p>
      </ErrorBoundary>,
    );
    expect(view.$('[role=alert]')?.textContent).toBe(SENTENCE);
    expect(view.$('.child')).toBeNull();
    view.rerender(
      <ErrorBoundary globalError={undefined}>
        <p className="child">the view</p>
      </ErrorBoundary>,
    );
    expect(view.$('.child')?.textContent).toBe('the view');
    expect(view.$('[role=alert]')).toBeNull();
    view.unmount();
  });

  it('shows the same sentence for a view that fails to render, not a blank box', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const view = renderInShadow(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(view.$('[role=alert]')?.textContent).toBe(SENTENCE);
    view.unmount();
  });

  it('[spec 8.missing-provider] a component outside the provider context says that it must be placed inside it', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function NeedsApp() {
      useApp();
      return null;
    }
    const view = renderInShadow(
      <ErrorBoundary>
        <NeedsApp />
      </ErrorBoundary>,
    );
    expect(view.$('[role=alert]')?.textContent).toBe(SENTENCE);
    const missing = { kind: 'missingProvider', message: 'Corbado components must be placed inside the provider context' };
    expect(logged).toHaveBeenCalledWith('[corbado]', expect.objectContaining(missing), expect.anything());
    view.unmount();
  });

  it("[spec 8.error-boundary] stands in for an account view of a logged-in visitor while the flow holds the start-up's error", () => {
    const $error = atom<CorbadoError | undefined>(unhandledFrontendError(new Error('start-up failed')));
    const $user = atom<SessionUser | undefined>({ sub: 'usr-1' } as SessionUser);
    const app = { flow: { $error }, session: { $user }, options: {} } as unknown as CorbadoApp;
    const Guarded = accountView(() => <p className="child">passkeys</p>);
    const view = renderInShadow(
      <AppContext.Provider value={app}>
        <Guarded />
      </AppContext.Provider>,
    );
    expect(view.$('[role=alert]')?.textContent).toBe(SENTENCE);
    act(() => $error.set(undefined));
    expect(view.$('.child')?.textContent).toBe('passkeys');
    // a visitor who is not logged in sees the view's own "please log in"
    act(() => {
      $error.set(unhandledFrontendError(new Error('again')));
      $user.set(undefined);
    });
    expect(view.$('.child')?.textContent).toBe('passkeys');
    view.unmount();
  });
});
