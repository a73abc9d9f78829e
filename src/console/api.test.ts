import { describe, expect, it, vi } from 'vitest';
import { ConsoleApi, ConsoleApiError, withQuery } from './api';

type Call = { url: string; method: string; headers: Record<string, string>; body?: string };

/** A fetch that answers each call from `answer` and records it. */
function fakeFetch(answer: (call: Call, n: number) => { status: number; body: unknown }) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call = { url: String(input), method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: init.body as string | undefined };
    calls.push(call);
    const { status, body } = answer(call, calls.length);
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const SESSION = { operator: { id: 'op-1', email: 'owner@example.com', role: 'owner', projects: [] }, csrfToken: 'token-1' };

describe('ConsoleApi', () => {
  it('sends the session CSRF token with every write and never with a read', async () => {
    const { fetch, calls } = fakeFetch((call) => (call.url === '/api/session' ? { status: 200, body: SESSION } : { status: 200, body: { ok: true } }));
    const api = new ConsoleApi({ fetch });
    await api.session();
    await api.get('/projects');
    await api.post('/projects/pro-1/users/u1/disable');
    await api.delete('/projects/pro-1/users/u1');
    expect(calls.map((call) => [call.method, call.headers['X-Console-CSRF']])).toEqual([
      ['GET', undefined],
      ['GET', undefined],
      ['POST', 'token-1'],
      ['DELETE', 'token-1'],
    ]);
  });

  it('answers the server error with its type, message and per-field messages', async () => {
    const { fetch } = fakeFetch(() => ({ status: 400, body: { error: { type: 'invalid', message: 'Check the fields', fields: { allowedOrigins: 'not an origin' } } } }));
    const error = await new ConsoleApi({ fetch }).patch('/projects/pro-1/settings', { allowedOrigins: ['x'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConsoleApiError);
    expect(error).toMatchObject({ status: 400, type: 'invalid', message: 'Check the fields', fields: { allowedOrigins: 'not an origin' } });
  });

  it('on recent_login_required signs in again, then sends the action once more with the new token', async () => {
    let token = 'old';
    const { fetch, calls } = fakeFetch((call) => {
      if (call.url === '/api/session') return { status: 200, body: { ...SESSION, csrfToken: token } };
      if (call.headers['X-Console-CSRF'] === 'old') return { status: 403, body: { error: { type: 'recent_login_required', message: 'Sign in again' } } };
      return { status: 200, body: { ok: true } };
    });
    const api = new ConsoleApi({ fetch });
    await api.session();
    const reauthenticate = vi.fn(async () => {
      token = 'new';
      await api.signIn('jwt');
    });
    api.setReauthenticate(reauthenticate);
    await expect(api.delete('/projects/pro-1/users/u1')).resolves.toEqual({ ok: true });
    expect(reauthenticate).toHaveBeenCalledOnce();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.headers['X-Console-CSRF'])).toEqual(['old', 'new']);
  });

  it('asks for a new sign-in once only: a second refusal is the answer', async () => {
    const { fetch } = fakeFetch(() => ({ status: 403, body: { error: { type: 'recent_login_required', message: 'Sign in again' } } }));
    const reauthenticate = vi.fn(async () => {});
    const api = new ConsoleApi({ fetch, reauthenticate });
    await expect(api.delete('/x')).rejects.toMatchObject({ type: 'recent_login_required' });
    expect(reauthenticate).toHaveBeenCalledOnce();
  });

  it('tells the page when the session is gone (401), and a missing session is no error', async () => {
    const { fetch } = fakeFetch(() => ({ status: 401, body: { error: { type: 'unauthenticated', message: 'Sign in' } } }));
    const onSignedOut = vi.fn();
    const api = new ConsoleApi({ fetch, onSignedOut });
    await expect(api.session()).resolves.toBeUndefined();
    expect(onSignedOut).not.toHaveBeenCalled();
    await expect(api.get('/projects')).rejects.toMatchObject({ status: 401 });
    expect(onSignedOut).toHaveBeenCalledOnce();
  });

  it('writes queries without empty values', () => {
    expect(withQuery('/users', { q: 'an n', cursor: '', limit: 25, x: undefined })).toBe('/users?q=an+n&limit=25');
    expect(withQuery('/users', {})).toBe('/users');
  });
});
