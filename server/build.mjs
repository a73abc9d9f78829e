// Builds the package's programs: dist/main.js (the server) and dist/admin.js (the admin command), each
// one ES module bundled by esbuild from the TypeScript sources, with the packages in `dependencies` left
// as imports. Bundled because the sources import the wire types from the widget's tree (type-only,
// gone after the build), so the package needs nothing of the repository. Files read at run time are
// copied beside them.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const here = new URL('./', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', here), 'utf8'));
const dist = new URL('dist/', here);

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);
await build({
  entryPoints: { main: new URL('main.ts', here).pathname, admin: new URL('admin.ts', here).pathname },
  outdir: dist.pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  banner: { js: '#!/usr/bin/env node' },
  sourcemap: true,
  logLevel: 'warning',
});
// the AAGUID catalogue is read next to the module that reads it (aaguids/AaguidCatalogue.ts)
copyFileSync(new URL('aaguids/catalogue.json', here), new URL('catalogue.json', dist));
console.info(`built ${pkg.name} ${pkg.version} into dist/ (main.js, admin.js)`);
