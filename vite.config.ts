import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, parseAst, type Plugin } from 'vite';

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

type TextTree = { [key: string]: string | TextTree };

/** The texts of a tree in the order of the English tree's keys, null where the language has none. */
export function textsInEnglishOrder(english: TextTree, tree: TextTree, path = ''): (string | null)[] {
  for (const key of Object.keys(tree)) {
    if (!(key in english)) throw new Error(`translation key ${path}${key} is not in en.json: add it there first`);
  }
  return Object.entries(english).flatMap(([key, value]) => {
    const own = tree[key];
    if (typeof value === 'string') return [typeof own === 'string' ? own : null];
    return textsInEnglishOrder(value, typeof own === 'object' ? own : {}, `${path}${key}.`);
  });
}

/**
 * The translations (imported as text, see src/core/i18n/i18n.ts) without the file's whitespace; every
 * language but English as its texts alone, in the order of en.json's keys (the keys once in the bundle:
 * about 0.5 KB brotli less).
 */
function compactJsonText(): Plugin {
  return {
    name: 'compact-json-text',
    apply: 'build',
    transform(_code, id) {
      const [file, query] = id.split('?');
      if (query !== 'raw' || !file!.endsWith('.json') || file!.includes('libphonenumber-js')) return null;
      const tree = JSON.parse(readFileSync(file!, 'utf8')) as TextTree;
      const english = join(file!, '..', 'en.json');
      if (file === english) return { code: jsonTextModule(tree), map: null };
      return { code: jsonTextModule(textsInEnglishOrder(JSON.parse(readFileSync(english, 'utf8')) as TextTree, tree)), map: null };
    },
  };
}

/** The languages shipped as add-on scripts beside the bundle (src/core/i18n/<code>.json). */
export const ADD_ON_LANGUAGES = ['fr', 'es', 'it', 'nl', 'pt', 'pl'] as const;

/** An add-on script: hands its texts to the widget loaded before it (`Corbado.addLanguage`). */
export function addOnScript(code: string, texts: TextTree): string {
  return `/*! corbado-widget ${version} (${code}): load after corbado.js */\nCorbado.addLanguage(${JSON.stringify(code)},${JSON.stringify(texts)});\n`;
}

/**
 * dist/corbado.<code>.js for each add-on language: a host puts it after corbado.js to offer the
 * language, and the bundle carries none of them (SPEC §1: nothing is fetched by the widget itself).
 */
function addOnLanguages(): Plugin {
  return {
    name: 'add-on-languages',
    apply: 'build',
    generateBundle(options) {
      if (options.format !== 'iife') return;
      for (const code of ADD_ON_LANGUAGES) {
        const texts = JSON.parse(readFileSync(new URL(`./src/core/i18n/${code}.json`, import.meta.url), 'utf8')) as TextTree;
        this.emitFile({ type: 'asset', fileName: `corbado.${code}.js`, source: addOnScript(code, texts) });
      }
    },
  };
}

/**
 * Every string a leading-digits pattern of the phone metadata matches: those patterns are finite
 * (digits, `[…]` classes, `\\d`, `(?:…)` groups and `|`, never a quantifier); anything else throws.
 */
export function leadingDigitsLanguage(pattern: string): string[] {
  let at = 0;
  const alternatives = (): string[] => {
    const words = sequence();
    while (pattern[at] === '|') {
      at++;
      words.push(...sequence());
    }
    return words;
  };
  const sequence = (): string[] => {
    let words = [''];
    while (at < pattern.length && pattern[at] !== '|' && pattern[at] !== ')') {
      const next = atom();
      words = words.flatMap((word) => next.map((tail) => word + tail));
    }
    return words;
  };
  const atom = (): string[] => {
    const rest = pattern.slice(at);
    const group = rest.startsWith('(?:');
    const token = /^(?:\d|\\d|\[[\d-]+\])/.exec(rest)?.[0];
    if (group) {
      at += 3;
      const words = alternatives();
      if (pattern[at++] !== ')') throw new Error(`leading digits ${pattern}: unclosed group`);
      return words;
    }
    if (!token) throw new Error(`leading digits ${pattern}: ${rest[0]} at ${at} is not a digit, class or group`);
    at += token.length;
    return [...'0123456789'].filter((digit) => new RegExp(`^${token}$`).test(digit));
  };
  const words = alternatives();
  if (at !== pattern.length) throw new Error(`leading digits ${pattern}: unexpected ) at ${at}`);
  return words;
}

/**
 * The phone metadata without what src/core/validation/phone.ts never reads (international dialling
 * prefixes, formatting flags, the number types' lengths, non-geographic numbering plans, the version):
 * about 1 KB brotli less.
 * And of each format's leading-digits patterns only the first: phone.ts takes a format when any of
 * them matches the start of the number, and every number a later (more specific) one matches starts
 * with one the first matches (checked here over every string the later ones match, so the result is
 * the same for every input): 1.9 KB brotli less. And no table of calling codes: phone.ts groups the
 * countries by their calling codes, the main one (marked) first (0.6 KB brotli less).
 */
export function slimPhoneMetadata(source: { country_calling_codes: Record<string, string[]>; countries: Record<string, unknown[]> }) {
  const trim = (list: unknown[]) => {
    while (list.length && !list[list.length - 1]) list.pop();
    return list;
  };
  const firstLeadingDigits = (country: string, leading: string[] | undefined) => {
    if (!leading?.length) return 0;
    const first = new RegExp(`^(?:${leading[0]})`);
    for (const later of leading.slice(1)) {
      const uncovered = leadingDigitsLanguage(later).find((digits) => !first.test(digits));
      if (uncovered !== undefined) throw new Error(`phone metadata ${country}: ${uncovered} matches leading digits ${later} but not ${leading[0]}: keep them all`);
    }
    return [leading[0]];
  };
  const countries = Object.fromEntries(
    Object.entries(source.countries).map(([country, plan]) => {
      const slim = plan.slice(0, 12);
      // not the international dialling prefix: 1 marks the main country of a shared calling code
      const shared = source.country_calling_codes[plan[0] as string]!;
      slim[1] = shared.length > 1 && shared[0] === country ? 1 : 0;
      slim[9] = 0; // national prefix optional when formatting
      // of each number type (for countries sharing a calling code) its pattern, not its lengths
      if (Array.isArray(slim[11])) slim[11] = (slim[11] as (unknown[] | 0)[]).map((type) => type && [type[0]]);
      if (Array.isArray(slim[4])) {
        slim[4] = (slim[4] as unknown[][]).map((format) =>
          trim([format[0], format[1], firstLeadingDigits(country, format[2] as string[] | undefined), format[3] ?? 0, 0, format[5] ?? 0]),
        );
      }
      return [country, trim(slim)];
    }),
  );
  // and no table of calling codes: phone.ts rebuilds it from the countries (checked here)
  const table: Record<string, string[]> = {};
  for (const [country, plan] of Object.entries(countries)) (table[plan[0] as string] ??= [])[plan[1] === 1 ? 'unshift' : 'push'](country);
  for (const [code, list] of Object.entries(source.country_calling_codes)) {
    if (String(table[code]) !== String(list)) throw new Error(`phone metadata: calling code ${code} is ${list}, not rebuilt from the countries`);
  }
  return { countries };
}

function slimPhoneMetadataModule(): Plugin {
  return {
    name: 'slim-phone-metadata',
    apply: 'build',
    transform(_code, id) {
      if (!/libphonenumber-js[\\/]metadata\.min\.json(\.js)?$/.test(id)) return null;
      const file = new URL('./node_modules/libphonenumber-js/metadata.min.json', import.meta.url);
      return { code: jsonTextModule(slimPhoneMetadata(JSON.parse(readFileSync(file, 'utf8')))), map: null };
    },
  };
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Every node under `node`, with the function it runs in (null: the script's top level). */
function walk(node: Node, visit: (node: Node, scope: Node | null) => void, scope: Node | null = null): void {
  visit(node, scope);
  const inner = FUNCTIONS.has(node.type) ? node : scope;
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) walk(child, visit, inner);
  }
}

/** Whether the arrow's own body (not its nested non-arrow functions) reads `this`, `arguments`, `super` or `new.target`. */
function usesOwnThis(arrow: Node): boolean {
  let found = false;
  const look = (node: Node) => {
    if (['ThisExpression', 'Super', 'MetaProperty'].includes(node.type) || (node.type === 'Identifier' && node.name === 'arguments')) found = true;
    for (const value of Object.values(node)) {
      for (const child of Array.isArray(value) ? value : [value]) {
        if (isNode(child) && child.type !== 'FunctionExpression' && child.type !== 'FunctionDeclaration') look(child);
      }
    }
  };
  look(arrow.body as Node);
  return found;
}

/**
 * The bundler wraps each CommonJS module (React, ReactDOM, the scheduler) in an arrow function that
 * runs on its first require, which for these is while the bundle is evaluated. V8 compiles a function
 * only when it is first called unless it looks immediately invoked, so each wrapper's body (ReactDOM's
 * is 200 KB) was scanned once with the script and parsed again when called. Written as a
 * parenthesized `function` expression, V8 compiles it once, with the script. Same behaviour: the
 * wrappers use neither `this` nor `arguments` (checked), and they are still called only on first require.
 */
export function eagerCommonJsWrappers(code: string): string {
  const program = parseAst(code) as unknown as Node;
  let helper: { name: string; scope: Node | null } | undefined;
  const calls: { arrow: Node; scope: Node | null }[] = [];
  walk(program, (node, scope) => {
    if (node.type === 'VariableDeclarator' && isNode(node.init) && node.init.type === 'ArrowFunctionExpression' && isNode(node.id)) {
      if (/^\([\w$]+,[\w$]+\)=>\(\)=>\([\w$]+\|\|\([\w$]+\(\([\w$]+=\{exports:\{\}\}\)\.exports/.test(code.slice(node.init.start, node.init.end).replace(/\s+/g, ''))) {
        helper = { name: node.id.name as string, scope };
      }
    }
    if (node.type !== 'CallExpression' || !isNode(node.callee) || node.callee.type !== 'Identifier') return;
    const [arrow, ...rest] = node.arguments as Node[];
    if (rest.length || !arrow || arrow.type !== 'ArrowFunctionExpression' || arrow.async || (arrow.body as Node).type !== 'BlockStatement') return;
    calls.push({ arrow: Object.assign(arrow, { callee: node.callee.name }), scope });
  });
  if (!helper) throw new Error('eager-commonjs-wrappers: the CommonJS wrapper helper was not found in the bundle');
  const found = helper;
  const wrappers = calls.filter(({ arrow, scope }) => arrow.callee === found.name && scope === found.scope);
  if (!wrappers.length) throw new Error('eager-commonjs-wrappers: no CommonJS module wrappers found');
  let result = code;
  for (const { arrow } of wrappers.sort((a, b) => b.arrow.start - a.arrow.start)) {
    if (usesOwnThis(arrow)) throw new Error('eager-commonjs-wrappers: a wrapper reads this or arguments');
    const params = (arrow.params as Node[]).map((param) => code.slice(param.start, param.end)).join(',');
    const body = code.slice((arrow.body as Node).start, arrow.end);
    const parenthesized = code[arrow.start - 1] === '(' && code[arrow.end] === ')' && code[arrow.start - 2] === '(';
    const fn = `function(${params})${body}`;
    result = result.slice(0, arrow.start) + (parenthesized ? fn : `(${fn})`) + result.slice(arrow.end);
  }
  return result;
}

/**
 * Beside each bundle and add-on language, its Subresource Integrity value (sha384, as browsers and CDNs' snippets use):
 * dist/corbado.js.sri holds what a script tag's `integrity` attribute takes. Read from the written
 * file, so it is the hash of exactly the bytes that ship.
 */
function writeIntegrity(): Plugin {
  return {
    name: 'write-integrity',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const [name, output] of Object.entries(bundle)) {
        if (!/\.m?js$/.test(name)) continue;
        const file = join(options.dir ?? 'dist', name);
        // after minification, which would turn the wrappers back into arrows (the add-on languages have none)
        if (output.type === 'chunk') writeFileSync(file, eagerCommonJsWrappers(readFileSync(file, 'utf8')));
        const hash = createHash('sha384').update(readFileSync(file)).digest('base64');
        writeFileSync(`${file}.sri`, `sha384-${hash}\n`);
      }
    },
  };
}

/**
 * Property names the minifier shortens: fields of React's own objects (fibers, roots, hooks, update
 * queues) and ky's private ones, which only the bundled copies of those libraries read and write, always
 * as `object.name` or `{ name: … }` (none of them appears quoted or as a DOM or JavaScript built-in
 * name). About 1 KB brotli (1,056 B with React 18.3). React DevTools cannot read the widget's component tree any more; in a
 * production build it shows little of it anyway. The fibers' `flags` and `tag` (also of updates,
 * effects and roots), the update queues' `shared` and `interleaved`, the roots' finished work and
 * event times and the legacy context's memoized fields followed on 2026-11-26: 183 B brotli (no
 * regular expression's `flags` is read in the bundle; nanostores' `shared` is its own, as dot access).
 */
const MANGLED_PROPERTIES = [
  'memoizedState', 'stateNode', 'memoizedProps', 'alternate', 'sibling', 'child', 'updateQueue',
  'pendingProps', 'subtreeFlags', 'containerInfo', 'childLanes', 'lanes', 'pendingLanes',
  'dependencies', 'dehydrated', 'suspendedLanes', '_currentValue', 'callbackNode', 'baseState',
  'cachePool', 'elementType', 'callbackPriority', 'lastBaseUpdate', 'deletions', 'timeoutHandle',
  'blockedOn', 'pingedLanes', 'firstBaseUpdate', 'entanglements', 'entangledLanes', 'isDehydrated',
  'pendingContext', 'lastEffect', 'retryLane', 'hasEagerState', 'expirationTimes',
  'lastRenderedReducer', 'firstContext', 'renderingStartTime', 'lastRenderedState', 'expiredLanes',
  'eagerState', 'baseQueue', 'baseLanes', 'pingCache', 'treeContext', 'memoizedValue',
  'pendingChildren', 'eventSystemFlags', '_reactInternals', 'tailMode', 'sortIndex',
  'enqueueReplaceState', 'enqueueSetState', 'enqueueForceUpdate', 'targetContainers', 'isBackwards',
  'priorityLevel', '_valueTracker', '_internalRoot', '_status', '_result', '_payload', '_init',
  '_context', 'flags', 'tag', 'shared', 'interleaved', 'finishedWork', 'finishedLanes', 'eventTimes',
  'mutableReadLanes', 'mutableSourceEagerHydrationData', '__reactInternalMemoizedUnmaskedChildContext',
  '__reactInternalMemoizedMaskedChildContext', '__reactInternalMemoizedMergedChildContext',
  // ky
  '_options', '_input', '_retryCount', '_decorateResponse', '_calculateRetryDelay', '_retry', '_fetch',
];
/**
 * And the widget's own atoms (`$block`, `$screen`, `$user`, …): by the naming rule of ARCHITECTURE.md
 * only atoms start with `$`, they are internal (the host API exposes none; `Corbado.user` and the
 * change streams are read from them inside the bundle), and nothing reads them by a computed name.
 * React's `$$typeof` does not match. 265 B brotli (2026-11-26).
 */
const mangledProperties = new RegExp(`^(?:${MANGLED_PROPERTIES.join('|')}|\\$[a-z][A-Za-z]*)$`);

// Library build: dist/corbado.js (a script tag: one global, Corbado) and dist/corbado.mjs (default export).
export default defineConfig(({ command }) => ({
  define: {
    __CORBADO_VERSION__: JSON.stringify(version),
    // only for the build: tests need React's development build (act)
    ...(command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {}),
  },
  plugins: [noNanostoresGlobal(), slimPhoneMetadataModule(), compactJsonText(), addOnLanguages(), writeIntegrity()],
  build: {
    target: 'es2022',
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
    rolldownOptions: { output: { exports: 'default', minify: { mangleProps: { include: mangledProperties } } } },
  },
}));
