// Bundle size: raw, gzip -9 and brotli 11 of dist/corbado.js, and which modules the minified bytes
// come from (a second build of the same config with source maps, into bench/tmp).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { spans, type SourceMapV3 } from './sourcemap.ts';

export interface SizeResults {
  file: string;
  rawBytes: number;
  gzipBytes: number;
  brotliBytes: number;
  rebuilt: boolean;
  /** minified bytes of the source-map build, by group, largest first */
  groups: { group: string; bytes: number; share: number }[];
  /** the largest single modules */
  modules: { module: string; bytes: number }[];
  attributionBuildBytes: number;
  notes: string[];
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function run(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], env: process.env });
}

/** Builds dist/ when corbado.js is missing or older than anything in src/ (or the build config). */
export function ensureBuilt(root: string): boolean {
  const bundle = join(root, 'dist', 'corbado.js');
  const inputs = Math.max(newestMtime(join(root, 'src')), statSync(join(root, 'vite.config.ts')).mtimeMs, statSync(join(root, 'package.json')).mtimeMs);
  if (existsSync(bundle) && statSync(bundle).mtimeMs >= inputs) return false;
  try {
    run('npm', ['run', 'build', '--silent'], root);
  } catch (error) {
    // the type declarations step can fail on work in progress elsewhere; the bundle is what counts here
    console.warn(`npm run build failed (${String(error).split('\n')[0]}); building the bundle alone with vite build`);
    run('npx', ['vite', 'build', '--logLevel', 'error'], root);
  }
  return true;
}

/** Finds the end (exclusive) of the string literal starting at `start` (its delimiter). */
function stringEnd(code: string, start: number): number {
  const quote = code[start];
  for (let i = start + 1; i < code.length; i++) {
    if (code[i] === '\\') i++;
    else if (code[i] === quote) return i + 1;
  }
  return -1;
}

/** Finds the end (exclusive) of the object literal whose "{" is at `start`, skipping string literals. */
function objectEnd(code: string, start: number): number {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const char = code[i];
    if (char === '"' || char === "'" || char === '`') {
      i = stringEnd(code, i) - 1;
      if (i < 0) return -1;
    } else if (char === '{') depth++;
    else if (char === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

interface Range {
  start: number;
  end: number;
  label: string;
}

/**
 * Bytes the source map cannot name: the translation JSON (inlined as JSON text or object literals, other
 * languages than English as an array of their texts) and the CSS
 * (inlined as one string literal). Found by content: each JSON file's first key, the CSS's first selector.
 */
function inlinedRanges(code: string, root: string, notes: string[]): Range[] {
  const ranges: Range[] = [];
  const i18nDir = join(root, 'src', 'core', 'i18n');
  for (const file of readdirSync(i18nDir).filter((name) => name.endsWith('.json'))) {
    const json = JSON.parse(readFileSync(join(i18nDir, file), 'utf8')) as Record<string, unknown>;
    const [first] = Object.keys(json);
    const second = first && json[first] && typeof json[first] === 'object' ? Object.keys(json[first] as object)[0] : undefined;
    if (!first || !second) continue;
    // the same first keys in every language: find each occurrence and tell them apart by a value
    const firstValue = String((json[first] as Record<string, unknown>)[second]);
    let from = 0;
    let found = false;
    for (;;) {
      // an object literal, or JSON text parsed on first use (vite.config.ts, compactJsonText)
      const plain = code.indexOf(`{${first}:{${second}:`, from);
      const quoted = code.indexOf(`{"${first}":{"${second}":`, from);
      const at = plain < 0 || (quoted >= 0 && quoted < plain) ? quoted : plain;
      const key = at === quoted ? `"${second}":` : `${second}:`;
      if (at < 0) break;
      from = at + 1;
      const end = objectEnd(code, at);
      if (end < 0) break;
      const text = code.slice(at, end);
      const otherFiles = readdirSync(i18nDir).filter((name) => name.endsWith('.json') && name !== file);
      const valueAt = text.indexOf(key) + key.length;
      const literal = text.slice(valueAt, stringEnd(text, valueAt));
      if (literal.slice(1, -1) === firstValue || (otherFiles.length === 0 && literal)) {
        ranges.push({ start: at, end, label: `src/core/i18n/${file}` });
        found = true;
        break;
      }
    }
    if (!found) {
      // a language other than English ships as its texts alone, a JSON array in en.json's key order
      // (vite.config.ts, compactJsonText): found by its first text
      const at = code.indexOf(`\`[${JSON.stringify(firstValue)},`);
      if (at >= 0 && code.indexOf(`\`[${JSON.stringify(firstValue)},`, at + 1) < 0) {
        ranges.push({ start: at, end: stringEnd(code, at), label: `src/core/i18n/${file}` });
        found = true;
      }
    }
    if (!found) notes.push(`could not find the inlined ${file} in the bundle; its bytes count as unattributed`);
  }
  const css = readFileSync(join(root, 'src', 'ui', 'styles', 'widget.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const selector = css.slice(0, css.indexOf('{')).replace(/\s+/g, '');
  const literalStart = ['`', '"', "'"].map((quote) => code.indexOf(`${quote}${selector}{`)).find((at) => at >= 0);
  if (literalStart !== undefined) {
    ranges.push({ start: literalStart, end: stringEnd(code, literalStart), label: 'src/ui/styles/widget.css' });
  } else {
    notes.push('could not find the inlined CSS in the bundle; its bytes count as unattributed');
  }
  return ranges;
}

/** The group a module belongs to (package, or our own folder). */
export function groupOf(module: string): string {
  const path = module.replace(/^(\.\.\/)+/, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (pkg) {
    const [, name, rest] = pkg;
    if (name === 'libphonenumber-js') return /metadata[^/]*\.json/.test(rest!) ? 'libphonenumber-js metadata' : 'libphonenumber-js code';
    if (name === 'react' || name === 'react-dom' || name === 'scheduler') return name === 'scheduler' ? 'scheduler (react-dom)' : name;
    return name!;
  }
  if (path === 'src/ui/styles/widget.css') return 'CSS (src/ui/styles)';
  if (path.startsWith('src/core/i18n/') && path.endsWith('.json')) return 'i18n JSON (src/core/i18n)';
  if (path.startsWith('src/core/')) return 'src/core';
  if (path.startsWith('src/ui/')) return 'src/ui';
  if (path.startsWith('src/')) return 'src (entry)';
  return path;
}

export function sizeBench(root: string, tmp: string): SizeResults {
  const rebuilt = ensureBuilt(root);
  const file = join(root, 'dist', 'corbado.js');
  const raw = readFileSync(file);
  const gzipBytes = gzipSync(raw, { level: 9 }).length;
  const brotliBytes = brotliCompressSync(raw, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
  }).length;

  const outDir = join(tmp, 'sourcemap-build');
  run('npx', ['vite', 'build', '--sourcemap', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], root);
  const code = readFileSync(join(outDir, 'corbado.js'), 'utf8');
  const map = JSON.parse(readFileSync(join(outDir, 'corbado.js.map'), 'utf8')) as SourceMapV3;
  const notes: string[] = [];
  const lines = code.split('\n');
  const lineStarts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  const inlined = inlinedRanges(code, root, notes);
  const mapDir = join(outDir, map.sourceRoot ?? '');
  const bytesByModule = new Map<string, number>();
  const add = (module: string, text: string) => bytesByModule.set(module, (bytesByModule.get(module) ?? 0) + Buffer.byteLength(text));

  for (const span of spans(map, lines)) {
    const base = lineStarts[span.line]!;
    let cursor = base + span.start;
    const end = base + span.end;
    const owner = span.source >= 0 ? relative(root, join(mapDir, map.sources[span.source]!)) : '(bundler runtime, unmapped)';
    // inlined ranges take their bytes out of whatever span (usually an unmapped one) holds them
    for (const range of inlined) {
      if (range.end <= cursor || range.start >= end) continue;
      if (range.start > cursor) add(owner, code.slice(cursor, range.start));
      const stop = Math.min(range.end, end);
      add(range.label, code.slice(Math.max(range.start, cursor), stop));
      cursor = stop;
    }
    if (cursor < end) add(owner, code.slice(cursor, end));
  }
  add('(bundler runtime, unmapped)', '\n'.repeat(lines.length - 1));

  const total = Buffer.byteLength(code);
  const groups = new Map<string, number>();
  for (const [module, bytes] of bytesByModule) groups.set(groupOf(module), (groups.get(groupOf(module)) ?? 0) + bytes);
  return {
    file: relative(root, file),
    rawBytes: raw.length,
    gzipBytes,
    brotliBytes,
    rebuilt,
    groups: [...groups].map(([group, bytes]) => ({ group, bytes, share: bytes / total })).sort((a, b) => b.bytes - a.bytes),
    modules: [...bytesByModule].map(([module, bytes]) => ({ module, bytes })).sort((a, b) => b.bytes - a.bytes).slice(0, 25),
    attributionBuildBytes: total,
    notes,
  };
}
