import { describe, expect, it } from 'vitest';
import { CorbadoError, passkeyChallengeCancelled, recentLoginCancelled, tooManyRequests } from '../../../core/errors';
import { accountErrorText } from './accountErrorText';

describe('accountErrorText', () => {
  it('names the wait after too many attempts, like the flow screens', () => {
    expect(accountErrorText(tooManyRequests(600))).toBe('Too many attempts. Please try again in 10 minutes.');
    expect(accountErrorText(tooManyRequests())).toBe('Too many attempts. Please try again later.');
  });

  it("gives the server's reason per identifier type, else a generic text", () => {
    const taken = new CorbadoError('unhandledBackendError', 'conflict', true, false, 'identifier_already_in_use');
    expect(accountErrorText(taken, 'email')).toBe('This email address is already taken. Please try another one or log in.');
    expect(accountErrorText(taken, 'phone')).toBe('This phone number is already taken. Please try another one or log in.');
    expect(accountErrorText(taken, 'username')).toBe('This username is already taken. Please try another one or log in.');
    expect(accountErrorText(new Error('boom'))).toBe('Something went wrong. Please try again later.');
    expect(accountErrorText(undefined)).toBe('Something went wrong. Please try again later.');
  });

  it('says nothing for a cancelled "Confirm it\'s you", and names a cancelled passkey', () => {
    expect(accountErrorText(recentLoginCancelled())).toBe('');
    expect(accountErrorText(passkeyChallengeCancelled())).toBe('The passkey request was cancelled or timed out.');
  });
});
