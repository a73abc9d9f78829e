import { defineConfig } from 'vite';

// The console (issue 33): a second Vite entry, an app of its own under src/console/, built to
// dist/console/ (index.html and hashed assets) after the widget's build. Nothing of it enters
// dist/corbado.js. The console's listener serves it under a strict CSP: the page has no inline script
// (the entry is a module file, the module-preload polyfill is off) and its styles are a stylesheet file.
export default defineConfig({
  root: 'src/console',
  base: '/',
  publicDir: false,
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: '../../dist/console',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    modulePreload: { polyfill: false },
    // every asset a file of its own (no data: URLs, which a strict img-src/font-src would refuse)
    assetsInlineLimit: 0,
  },
});
