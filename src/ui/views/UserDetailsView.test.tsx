import { atom } from 'nanostores';
import { describe, expect, it, vi } from 'vitest';
import type { CorbadoApp } from '../../core/app';
import { recentLoginCancelled, unhandledBackendError, type CorbadoError } from '../../core/errors';
import { AppContext } from '../context';
import { renderInShadow } from '../test/renderInShadow';
import { UserDetailsView } from './UserDetailsView';

/** The user details of a logged-in visitor whose profile failed to load with `error`. */
function renderFailed(error: CorbadoError) {
  const app = {
    options: {},
    session: { $user: atom({ sub: 'usr-1', email: 'ada@example.com' }) },
    account: { $me: atom({ state: 'failed', error }), $config: atom(undefined), loadMe: vi.fn(async () => undefined), loadConfig: vi.fn(async () => undefined) },
  } as unknown as CorbadoApp;
  return renderInShadow(
    <AppContext.Provider value={app}>
      <UserDetailsView />
    </AppContext.Provider>,
  );
}

describe('the user details', () => {
  it('[spec 8.load-failures] a failure to load the user is shown, unless it is flagged ignorable', () => {
    const failed = renderFailed(unhandledBackendError('internal_error'));
    expect(failed.$('[role=alert]')?.textContent).toBe('Something went wrong. Please try again later or refresh the page.');
    failed.unmount();
    const ignored = renderFailed(recentLoginCancelled());
    expect(ignored.$('[role=alert]')).toBeNull();
    ignored.unmount();
  });
});
