// The console's build (vite.console.config.ts, run by `npm run build` after the widget's): its own
// files under dist/console/, a page a strict CSP allows (no inline script or style, nothing from
// another origin), and nothing of it in the widget's bundle.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// a path, not a URL: this project's environment (happy-dom) has a URL class of its own that node:fs does not take
const root = join(dirname(fileURLToPath(String(import.meta.url))), '..', '..', 'dist');
const dist = (file: string) => join(root, file);
const NOT_BUILT = 'dist/console is not built: run `npm run build` first (npm test does)';

describe('dist/console', () => {
  it('is a page with no inline script or style and no third-party request', (ctx) => {
    ctx.skip(!existsSync(dist('console/index.html')), NOT_BUILT);
    const html = readFileSync(dist('console/index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="\/assets\/[^"]+\.js"/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
    const assets = readdirSync(dist('console/assets/'));
    for (const file of ['index.html', ...assets.map((name) => `assets/${name}`)]) {
      const text = readFileSync(dist(`console/${file}`), 'utf8');
      // no address of another origin is fetched: no http(s) URL in a src, href, url() or import
      expect(text, file).not.toMatch(/(?:src=|href=|url\(|import\(|from)\s*["']?https?:\/\//);
    }
    expect(assets.some((name) => name.endsWith('.css'))).toBe(true);
  });

  it('stays out of the widget: dist/corbado.js has none of the console', (ctx) => {
    ctx.skip(!existsSync(dist('corbado.js')) || !existsSync(dist('console/index.html')), NOT_BUILT);
    const widget = readFileSync(dist('corbado.js'), 'utf8');
    expect(widget).not.toContain('Sign in to the console');
    expect(widget).not.toContain('uPlot');
    const app = readdirSync(dist('console/assets/')).filter((name) => name.endsWith('.js')).map((name) => readFileSync(dist(`console/assets/${name}`), 'utf8')).join('');
    expect(app).toContain('Sign in to the console');
  });
});
