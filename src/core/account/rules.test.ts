import { describe, expect, it } from 'vitest';
import type { MeIdentifier, UserDetailsConfig } from '../api/types';
import { canAddIdentifier, identifierActions } from './rules';

const email = (id: string, status = 'verified', primary = false): MeIdentifier => ({ id, type: 'email', value: `${id}@example.com`, status, primary });
const phone = (id: string, status = 'verified'): MeIdentifier => ({ id, type: 'phone', value: '+4915112345678', status });
const config: UserDetailsConfig = {
  fullNameRequired: true,
  identifiers: [
    { type: 'email', loginIdentifier: true, maxPerUser: 2 },
    { type: 'phone', loginIdentifier: false },
  ],
};

describe('adding an identifier', () => {
  it('is offered up to the per-user maximum of an enabled type (one where none is given)', () => {
    expect(canAddIdentifier(config, 'email', [])).toBe(true);
    expect(canAddIdentifier(config, 'email', [email('a')])).toBe(true);
    expect(canAddIdentifier(config, 'email', [email('a'), email('b')])).toBe(false);
    expect(canAddIdentifier(config, 'phone', [email('a')])).toBe(true);
    expect(canAddIdentifier(config, 'phone', [phone('p')])).toBe(false);
  });

  it('is not offered for a type the project does not enable, nor without a configuration', () => {
    expect(canAddIdentifier(config, 'username', [])).toBe(false);
    expect(canAddIdentifier(undefined, 'email', [])).toBe(false);
  });
});

describe('what can be done with one identifier', () => {
  it('the last verified identifier that logs in cannot be removed; a second verified one frees both', () => {
    const only = email('a');
    expect(identifierActions(config, only, [only, phone('p')])).toEqual({ several: false, removable: false });
    const second = email('b');
    expect(identifierActions(config, only, [only, second])).toEqual({ several: true, removable: true });
    expect(identifierActions(config, second, [only, second])).toEqual({ several: true, removable: true });
  });

  it('a pending identifier does not keep the account reachable', () => {
    const verified = email('a');
    const pending = email('b', 'pending');
    expect(identifierActions(config, verified, [verified, pending]).removable).toBe(false);
    expect(identifierActions(config, pending, [verified, pending]).removable).toBe(true);
  });

  it('an identifier that does not log in can always be removed', () => {
    const only = email('a');
    const number = phone('p');
    expect(identifierActions(config, number, [only, number])).toEqual({ several: false, removable: true });
  });

  it('without a configuration every identifier counts as logging in', () => {
    const only = phone('p');
    expect(identifierActions(undefined, only, [only]).removable).toBe(false);
  });
});
