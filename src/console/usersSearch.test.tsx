// The users page writes its search into the address (#/pro-1/users?q=…) once typing pauses. A row
// opened within that pause must stay opened: the search's hash written after the click put the operator
// back on the list (seen in the console's e2e spec on a loaded machine).
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { ConsoleApi } from './api';
import { ConsoleContext, type ConsoleContextValue } from './context';
import { translator } from './i18n';
import { SEARCH_DELAY, Users } from './pages/Users';
import { parseRoute } from './route';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const user = { id: 'usr-1', fullName: 'Carla Console', status: 'active', identifiers: [], created: '2026-11-29T05:00:00Z' };

beforeEach(() => {
  vi.useFakeTimers();
  window.location.hash = '#/pro-1/users';
});
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

async function render(): Promise<HTMLElement> {
  const api = { get: vi.fn(async () => ({ users: [user], nextCursor: null })) } as unknown as ConsoleApi;
  const value = {
    api,
    t: translator('en'),
    language: 'en',
    route: parseRoute(window.location.hash),
  } as unknown as ConsoleContextValue;
  const host = document.createElement('div');
  document.body.append(host);
  await act(async () => {
    createRoot(host).render(
      <ConsoleContext.Provider value={value}>
        <Users project="pro-1" />
      </ConsoleContext.Provider>,
    );
  });
  return host;
}

function type(host: HTMLElement, text: string): void {
  const input = host.querySelector<HTMLInputElement>('#user-search')!;
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

it('writes the search into the address once typing pauses', async () => {
  const host = await render();
  type(host, 'carla');
  await act(async () => vi.advanceTimersByTime(SEARCH_DELAY));
  expect(window.location.hash).toBe('#/pro-1/users?q=carla');
});

it('leaves a row opened within the typing pause opened', async () => {
  const host = await render();
  type(host, 'carla');
  // the operator opens the row before the pause is over; the console's hashchange has not run yet
  window.history.pushState(null, '', '#/pro-1/users/usr-1');
  await act(async () => vi.advanceTimersByTime(SEARCH_DELAY));
  expect(window.location.hash).toBe('#/pro-1/users/usr-1');
});
