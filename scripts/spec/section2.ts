import type { SpecRule } from './types';

/** SPEC §2. Every rule of the section; a test pins each through `[spec <id>]` in its title. */
export const rules: SpecRule[] = [
  {
    id: '2.social-verify',
    rule: 'social-verify is a block (log-in leads to social verify): the provider round trip has a screen while it is started or finished, and its error with a way back.',
  },
];
