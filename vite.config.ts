import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * nanostores shares its epoch counter between copies through globalThis.nanostoresGlobal. The bundle
 * holds exactly one copy, so a module-local counter does the same without a second global on window.
 */
function noNanostoresGlobal(): Plugin {
  const shared = /\(globalThis\.nanostoresGlobal \|\|= (\{ epoch: 0 \})\)/;
  return {
    name: 'no-nanostores-global',
    apply: 'build',
    transform(code, id) {
      if (!/nanostores[\\/]atom[\\/]index\.js$/.test(id)) return null;
      if (!shared.test(code)) this.error('nanostores no longer declares nanostoresGlobal as expected: check the global it adds');
      return { code: code.replace(shared, '($1)'), map: null };
    },
  };
}

// Library build: dist/corbado.js (a script tag: one global, Corbado) and dist/corbado.mjs (default export).
export default defineConfig(({ command }) => ({
  define: {
    __CORBADO_VERSION__: JSON.stringify(version),
    // only for the build: tests need React's development build (act)
    ...(command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {}),
  },
  plugins: [noNanostoresGlobal()],
  build: {
    target: 'es2020',
    minify: true,
    sourcemap: false,
    reportCompressedSize: false,
    lib: {
      entry: 'src/Corbado.ts',
      name: 'Corbado',
      formats: ['iife', 'es'],
      fileName: (format) => (format === 'es' ? 'corbado.mjs' : 'corbado.js'),
    },
    rolldownOptions: { output: { exports: 'default', minify: true } },
  },
}));
