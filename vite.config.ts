import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// Library build: dist/corbado.js (a script tag: one global, Corbado) and dist/corbado.mjs (default export).
export default defineConfig(({ command }) => ({
  define: {
    __CORBADO_VERSION__: JSON.stringify(version),
    // only for the build: tests need React's development build (act)
    ...(command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {}),
  },
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
    rolldownOptions: { output: { exports: 'default' } },
  },
}));
