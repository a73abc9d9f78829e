// The npm package, as a CDN (unpkg, jsDelivr) serves it to a CMS page: what it holds, where its entry
// points lead, and the Subresource Integrity value beside the script-tag file.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ADD_ON_LANGUAGES } from '../vite.config.ts';

const root = new URL('../', import.meta.url);
const NOT_BUILT = 'dist/ is not built: run `npm run build` first (npm test does)';
const built = () => existsSync(new URL('dist/corbado.js', root)) && existsSync(new URL('dist/corbado.d.ts', root));

interface PackageJson {
  private?: boolean;
  dependencies?: Record<string, string>;
  version: string;
  exports: Record<string, string | Record<string, string>>;
  module: string;
  types: string;
  unpkg: string;
  jsdelivr: string;
}
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as PackageJson;

/** The paths `npm pack` would put into the tarball (nothing is written). */
function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0].files.map((file) => file.path).sort();
}

describe('the npm package', () => {
  it('is publishable under a release version', () => {
    expect(pkg.private).toBeUndefined();
    expect(pkg.version).toMatch(/^[1-9]\d*\.\d+\.\d+$/);
  });

  it('makes an install pull in nothing: React and the rest are inside both bundles', (ctx) => {
    expect(pkg.dependencies).toBeUndefined();
    ctx.skip(!built(), NOT_BUILT);
    // the ES module build imports nothing either (a bundler would otherwise need those packages)
    expect(readFileSync(new URL('dist/corbado.mjs', root), 'utf8')).not.toMatch(/^\s*import\b|\bfrom\s*["'][^./]/m);
  });

  it('holds the two bundles, the add-on languages, their integrity values and the types, and nothing of the sources, demo or tests', { timeout: 60_000 }, (ctx) => {
    ctx.skip(!built(), NOT_BUILT);
    const files = packedFiles();
    expect(files.filter((path) => !path.startsWith('dist/types/'))).toEqual(
      [
        'README.md',
        'dist/corbado.d.mts',
        'dist/corbado.d.ts',
        'dist/corbado.js',
        'dist/corbado.js.sri',
        'dist/corbado.mjs',
        'dist/corbado.mjs.sri',
        ...ADD_ON_LANGUAGES.flatMap((code) => [`dist/corbado.${code}.js`, `dist/corbado.${code}.js.sri`]),
        'package.json',
      ].sort(),
    );
    // the declarations the two entry files re-export, and only declarations
    expect(files).toContain('dist/types/Corbado.d.ts');
    expect(files.filter((path) => path.startsWith('dist/types/') && !path.endsWith('.d.ts'))).toEqual([]);

    // every entry point a bundler, Node or a CDN follows leads to a file in the package
    const targets = [pkg.module, pkg.types, pkg.unpkg, pkg.jsdelivr];
    for (const entry of Object.values(pkg.exports)) targets.push(...(typeof entry === 'string' ? [entry] : Object.values(entry)));
    for (const target of targets) expect(files, target).toContain(target.replace(/^\.\//, ''));
    // a CDN's bare package URL serves the script-tag file, the one that defines the global
    expect(pkg.unpkg).toBe('./dist/corbado.js');
    expect(pkg.jsdelivr).toBe('./dist/corbado.js');
  });

  it('ships a sha384 Subresource Integrity value that matches each bundle byte for byte', (ctx) => {
    ctx.skip(!built(), NOT_BUILT);
    for (const name of ['corbado.js', 'corbado.mjs', ...ADD_ON_LANGUAGES.map((code) => `corbado.${code}.js`)]) {
      const expected = `sha384-${createHash('sha384').update(readFileSync(new URL(`dist/${name}`, root))).digest('base64')}`;
      expect(readFileSync(new URL(`dist/${name}.sri`, root), 'utf8').trim(), name).toBe(expected);
    }
  });

  it('ships each add-on language as a script that hands its whole text tree to the widget loaded before it', (ctx) => {
    ctx.skip(!built(), NOT_BUILT);
    for (const code of ADD_ON_LANGUAGES) {
      const added: unknown[][] = [];
      runInNewContext(readFileSync(new URL(`dist/corbado.${code}.js`, root), 'utf8'), { Corbado: { addLanguage: (...args: unknown[]) => added.push(args) } });
      expect(added, code).toEqual([[code, JSON.parse(readFileSync(new URL(`src/core/i18n/${code}.json`, root), 'utf8'))]]);
    }
    // the bundle itself carries none of them
    const bundle = readFileSync(new URL('dist/corbado.js', root), 'utf8');
    expect(bundle).not.toContain('Nom d’utilisateur');
    expect(bundle).not.toContain('klucz dostępu');
  });
});
