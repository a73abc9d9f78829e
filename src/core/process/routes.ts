// The URL hash mirrors the current block (SPEC.md section 2, "Routes").
import type { BlockType } from '../api/types';

const ALIASES: Record<string, BlockType> = { register: 'signup-init', login: 'login-init' };

/** The block a hash names: "register" and "login" are aliases, anything else is the block name. */
export function blockFromHash(hash: string): string | undefined {
  const name = decodeURIComponent(hash.replace(/^#/, '')).trim();
  if (!name) return undefined;
  return ALIASES[name] ?? name;
}

export function hashForBlock(block: BlockType): string {
  return `#${block}`;
}

/** A history entry is pushed on each block change, except for these blocks. */
export function pushesHistory(block: BlockType): boolean {
  return block !== 'completed' && block !== 'continue-on-other-env';
}
