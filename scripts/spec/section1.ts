import type { SpecRule } from './types';

/** SPEC §1. Every rule of the section; a test pins each through `[spec <id>]` in its title. */
export const rules: SpecRule[] = [];
