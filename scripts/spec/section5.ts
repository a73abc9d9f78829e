import type { SpecRule } from './types';

/** SPEC §5. Every rule of the section; a test pins each through `[spec <id>]` in its title. */
export const rules: SpecRule[] = [
  { id: '5.username', rule: 'Username: 4 to 32 characters, only alphanumerics, "-" or "_".' },
];
