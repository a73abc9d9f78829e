// The server's side-by-side (bench/lib/serverBeside.ts): the base commit is checked out beside this one
// with dependencies it can run on, and nothing of it is left behind in the repository afterwards.
import { execFileSync } from 'node:child_process';
import { existsSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutBase } from './serverBeside.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const worktrees = () => execFileSync('git', ['-C', ROOT, 'worktree', 'list', '--porcelain'], { encoding: 'utf8' });

describe.skipIf(!existsSync(join(ROOT, '.git')))('the base commit beside this checkout', () => {
  it('is a worktree of its own with its apiServer and, with the same lockfile, our dependencies; removed, nothing is left', () => {
    const said: string[] = [];
    const base = checkoutBase(ROOT, 'HEAD', (text) => said.push(text));
    try {
      expect(base.commit).toBe(execFileSync('git', ['-C', ROOT, 'rev-parse', '--short=7', 'HEAD'], { encoding: 'utf8' }).trim());
      expect(existsSync(join(base.folder, 'bench', 'apiServer.ts'))).toBe(true);
      expect(realpathSync(readlinkSync(join(base.folder, 'node_modules')))).toBe(realpathSync(join(ROOT, 'node_modules')));
      expect(said).toEqual([]); // nothing installed: the lockfile is ours
      expect(worktrees()).toContain(base.folder);
    } finally {
      base.remove();
    }
    expect(existsSync(base.folder)).toBe(false);
    expect(existsSync(join(base.folder, '..'))).toBe(false);
    expect(worktrees()).not.toContain(base.folder);
  });

  it('refuses a commit that does not exist, leaving nothing behind', () => {
    const before = worktrees();
    expect(() => checkoutBase(ROOT, 'no-such-commit', () => undefined)).toThrow();
    expect(worktrees()).toBe(before);
  });
});
