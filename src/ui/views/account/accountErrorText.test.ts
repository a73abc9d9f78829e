import { describe, expect, it } from 'vitest';
import { CorbadoError, tooManyRequests } from '../../../core/errors';
import { accountErrorText } from './accountErrorText';

describe('accountErrorText', () => {
  it('names the wait after too many attempts, like the flow screens', () => {
    expect(accountErrorText(tooManyRequests(600))).toBe('Too many attempts. Please try again in 10 minutes.');
    expect(accountErrorText(tooManyRequests())).toBe('Too many attempts. Please try again later.');
  });

  it("gives the server's reason per identifier type, else a generic text", () => {
    const taken = new CorbadoError('unhandledBackendError', 'conflict', true, false, 'identifier_already_in_use');
    expect(accountErrorText(taken, 'email')).not.toBe(accountErrorText(new Error('boom')));
    expect(accountErrorText(new Error('boom'))).toBe(accountErrorText(undefined));
  });
});
