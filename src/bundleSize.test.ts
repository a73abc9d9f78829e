// Sizes are deterministic: they are asserted here; timings live in `npm run bench`.
import { existsSync, readFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const file = new URL('../dist/corbado.js', import.meta.url);
const KB = 1024;

describe.runIf(existsSync(file))('dist/corbado.js', () => {
  const code = readFileSync(file);
  const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

  it('stays under its budget of 108 KB brotli (quality 11), React, both languages, CSS and icons included, so growth is a decision and not an accident', () => {
    // 108 KB from issue 8 (accessibility, isolation, provider marks) on; 103.1 KiB when set, React 19
    // alone takes 58 KB of it (README, "Performance")
    expect(brotli).toBeLessThan(108 * KB);
  });

  it('holds everything: the CSS and both languages are inside, nothing is fetched', () => {
    const text = code.toString('utf8');
    expect(text).toContain('.cb-root');
    expect(text).toContain('Create your account');
    expect(text).toContain('Konto erstellen');
    expect(text).not.toMatch(/import\(|\.json["'`]/);
  });
});

it('is built before the size tests run (npm test builds first)', () => {
  expect(existsSync(file)).toBe(true);
});
