import { describe, expect, it } from 'vitest';
import { blockFromHash, hashForBlock, pushesHistory } from './routes';

describe('routes', () => {
  it('[spec 2.hash-aliases] maps the two aliases and passes other hashes through as block names', () => {
    expect(blockFromHash('#register')).toBe('signup-init');
    expect(blockFromHash('#login')).toBe('login-init');
    expect(blockFromHash('#email-verify')).toBe('email-verify');
    expect(blockFromHash('#')).toBeUndefined();
    expect(blockFromHash('')).toBeUndefined();
  });

  it('writes the block name and reads it back', () => {
    expect(blockFromHash(hashForBlock('passkey-append'))).toBe('passkey-append');
  });

  it('pushes history for every block but completed and continue-on-other-env', () => {
    expect(pushesHistory('signup-init')).toBe(true);
    expect(pushesHistory('completed')).toBe(false);
    expect(pushesHistory('continue-on-other-env')).toBe(false);
  });
});
