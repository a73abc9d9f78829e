import type { SpecRule } from './types';

/** SPEC §6. Every rule of the section; a test pins each through `[spec <id>]` in its title. */
export const rules: SpecRule[] = [
  { id: '6.two-states', rule: 'Only two states exist: anonymous (not logged in) and logged in.' },
  {
    id: '6.no-roles',
    rule: 'No roles beyond anonymous and logged in are shown.',
    reason: 'An absence: the product has no roles to show, so there is nothing a test could see; 6.two-states pins the two states there are.',
  },
  { id: '6.anonymous', rule: 'Anonymous visitors may sign up or log in.' },
  { id: '6.user-details', rule: 'Logged-in users may get full user details.' },
  { id: '6.own-passkeys', rule: 'Logged-in users may list, add and delete their own passkeys.' },
  { id: '6.refresh-logout', rule: 'Logged-in users may refresh the session and log out.' },
  { id: '6.please-log-in', rule: 'The passkey list and user details show the "Please log in" warning without a session.' },
  { id: '6.signup-config', rule: 'Whether sign-up is offered depends on configuration.' },
  {
    id: '6.project-header',
    rule: 'Calls carry the project identifier in a header.',
    deviation: 'Except the first two, which carry it in the query, so that a fresh visitor pays no CORS preflight (7.headers; issue 34).',
  },
  { id: '6.bearer', rule: 'Calls carry a bearer token where a session exists.' },
];
