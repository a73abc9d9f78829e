import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/**
 * A JSON value as a module whose default export is its text, for JSON.parse on first use (the phone
 * metadata; the translations, imported with ?raw). String.raw keeps the text as it is, with no quote or
 * backslash escaped again.
 */
function jsonTextModule(value: unknown): string {
  const text = JSON.stringify(value);
  return /`|\$\{|\\$/.test(text) ? `export default ${JSON.stringify(text)};` : `export default String.raw\`${text}\`;`;
}

/** The translations (imported as text, see src/core/i18n/i18n.ts) without the file's whitespace. */
function compactJsonText(): Plugin {
  return {
    name: 'compact-json-text',
    apply: 'build',
    transform(_code, id) {
      const [file, query] = id.split('?');
      if (query !== 'raw' || !file!.endsWith('.json') || file!.includes('libphonenumber-js')) return null;
      return { code: jsonTextModule(JSON.parse(readFileSync(file!, 'utf8'))), map: null };
    },
  };
}

/**
 * The phone metadata without what src/core/validation/phone.ts never reads (international dialling
 * prefixes, formatting flags, non-geographic numbering plans, the version): about 1 KB brotli less.
 */
function slimPhoneMetadata(): Plugin {
  type Plan = unknown[];
  return {
    name: 'slim-phone-metadata',
    apply: 'build',
    transform(_code, id) {
      if (!/libphonenumber-js[\\/]metadata\.min\.json(\.js)?$/.test(id)) return null;
      const file = new URL('./node_modules/libphonenumber-js/metadata.min.json', import.meta.url);
      const source = JSON.parse(readFileSync(file, 'utf8')) as {
        country_calling_codes: Record<string, string[]>;
        countries: Record<string, Plan>;
      };
      const trim = (list: unknown[]) => {
        while (list.length && !list[list.length - 1]) list.pop();
        return list;
      };
      const countries = Object.fromEntries(
        Object.entries(source.countries).map(([country, plan]) => {
          const slim = plan.slice(0, 12);
          slim[1] = 0; // international dialling prefix
          slim[9] = 0; // national prefix optional when formatting
          if (Array.isArray(slim[4])) {
            slim[4] = (slim[4] as unknown[][]).map((format) => trim([format[0], format[1], format[2] ?? 0, format[3] ?? 0, 0, format[5] ?? 0]));
          }
          return [country, trim(slim)];
        }),
      );
      return { code: jsonTextModule({ country_calling_codes: source.country_calling_codes, countries }), map: null };
    },
  };
}

/**
 * Beside each bundle, its Subresource Integrity value (sha384, as browsers and CDNs' snippets use):
 * dist/corbado.js.sri holds what a script tag's `integrity` attribute takes. Read from the written
 * file, so it is the hash of exactly the bytes that ship.
 */
function writeIntegrity(): Plugin {
  return {
    name: 'write-integrity',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const name of Object.keys(bundle)) {
        if (!/\.m?js$/.test(name)) continue;
        const file = join(options.dir ?? 'dist', name);
        const hash = createHash('sha384').update(readFileSync(file)).digest('base64');
        writeFileSync(`${file}.sri`, `sha384-${hash}\n`);
      }
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
  plugins: [noNanostoresGlobal(), slimPhoneMetadata(), compactJsonText(), writeIntegrity()],
  build: {
    target: 'es2020',
    minify: true,
    sourcemap: false,
    reportCompressedSize: false,
    // public/ holds the demo's static files (favicon); the library build ships only the bundle
    copyPublicDir: false,
    lib: {
      entry: 'src/Corbado.ts',
      name: 'Corbado',
      formats: ['iife', 'es'],
      fileName: (format) => (format === 'es' ? 'corbado.mjs' : 'corbado.js'),
    },
    rolldownOptions: { output: { exports: 'default', minify: true } },
  },
}));
