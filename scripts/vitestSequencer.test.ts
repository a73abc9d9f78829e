import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestSpecification, Vitest } from 'vitest/node';
import { afterAll, describe, expect, it } from 'vitest';
import { codeSize, QUICK_MS, QuickOrSkippedFirst } from './vitestSequencer.ts';

const ROOT = mkdtempSync(join(tmpdir(), 'sequencer-'));
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));
const write = (path: string, text: string) => {
  mkdirSync(join(ROOT, path, '..'), { recursive: true });
  writeFileSync(join(ROOT, path), text);
};

/** A sequencer over a last run's durations (project:file → ms; absent: never run). */
function sequencer(durations: Record<string, number>, failed: string[] = []) {
  const ctx = {
    config: { root: ROOT },
    cache: {
      getFileTestResults: (key: string) => (key in durations ? { duration: durations[key], failed: failed.includes(key) } : undefined),
      getFileStats: () => undefined,
    },
  };
  return new QuickOrSkippedFirst(ctx as unknown as Vitest);
}

const spec = (project: string, path: string) =>
  ({ project: { name: project, config: { isolate: false, sequence: { groupOrder: 0 } } }, moduleId: join(ROOT, path) }) as unknown as TestSpecification;
const names = (files: TestSpecification[]) => files.map((file) => `${file.project.name}:${file.moduleId.slice(ROOT.length + 1)}`);

describe('the order test files start in', () => {
  it('a file skipped on the last run (milliseconds) starts first; the rest failed first, then longest first', async () => {
    const files = ['a', 'skippedThere', 'long', 'mid', 'broke'].map((name) => spec('server', `${name}.test.ts`));
    const sorted = await sequencer(
      { 'server:a.test.ts': 900, 'server:skippedThere.test.ts': QUICK_MS - 1, 'server:long.test.ts': 88_000, 'server:mid.test.ts': 5_000, 'server:broke.test.ts': 100 },
      ['server:broke.test.ts'],
    ).sort(files);
    expect(names(sorted)).toEqual(['server:skippedThere.test.ts', 'server:broke.test.ts', 'server:long.test.ts', 'server:mid.test.ts', 'server:a.test.ts']);
  });

  it('on a fresh clone, larger first, counting what a file imports by a relative path; each project\'s files together', async () => {
    write('fuzz/routes.ts', `export const routes = '${'x'.repeat(5_000)}';\n`);
    write('fuzz/even.test.ts', "import { routes } from './routes.ts';\nimport { it } from 'vitest';\n");
    write('mid.test.ts', `it('${'y'.repeat(2_000)}');\n`);
    write('small.test.ts', "it('z');\n");
    write('tools/one.test.ts', "it('t');\n");
    expect(codeSize(join(ROOT, 'fuzz/even.test.ts'))).toBeGreaterThan(5_000);
    const files = [spec('server', 'small.test.ts'), spec('tools', 'tools/one.test.ts'), spec('server', 'mid.test.ts'), spec('server', 'fuzz/even.test.ts')];
    expect(names(await sequencer({}).sort(files))).toEqual(['server:fuzz/even.test.ts', 'server:mid.test.ts', 'server:small.test.ts', 'tools:tools/one.test.ts']);
  });
});
