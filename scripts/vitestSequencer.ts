// The order vitest starts test files in, per project (projects in vitest's own order):
// 1. files it has no duration for, or whose last run took under QUICK_MS, larger first, where a file's
//    size counts the modules it imports by a relative path (one level): the fuzz's two files are two
//    lines each that run server/test/security/fuzzRoutes.ts (26 KB), and by their own size a fresh
//    clone started them last, to run alone for the SQLite lane's last 25 s. A file that took under
//    QUICK_MS was either quick, which costs nothing at the start, or skipped as a whole: `npm run
//    test:postgres` runs the server project after `npm test`'s SQLite run in the same checkout, and the
//    PostgreSQL-only files (server/test/faults/operatorScenario.test.ts, postgresFaults.test.ts),
//    skipped there in milliseconds, came last and ran alone for the PostgreSQL lane's last 40 s;
// 2. then the rest as vitest has them: failed first, then longest first.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const QUICK_MS = 50;

/** The file's bytes and those of the modules it imports by a relative path. */
export function codeSize(file: string): number {
  const text = readFileSync(file, 'utf8');
  let size = Buffer.byteLength(text);
  for (const [, path] of text.matchAll(/\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const imported = resolve(dirname(file), path!);
    if (existsSync(imported) && statSync(imported).isFile()) size += statSync(imported).size;
  }
  return size;
}

export class QuickOrSkippedFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const last = (file: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`);
    const sizes = new Map<TestSpecification, number>();
    const sizeOf = (file: TestSpecification) => {
      if (!sizes.has(file)) sizes.set(file, existsSync(file.moduleId) ? codeSize(file.moduleId) : 0);
      return sizes.get(file)!;
    };
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    return projects.flatMap((name) => {
      const own = sorted.filter((file) => file.project.name === name);
      const first = own.filter((file) => (last(file)?.duration ?? 0) < QUICK_MS);
      const timed = own.filter((file) => !first.includes(file));
      first.sort((a, b) => sizeOf(b) - sizeOf(a));
      timed.sort((a, b) => Number(last(b)!.failed) - Number(last(a)!.failed) || last(b)!.duration - last(a)!.duration);
      return [...first, ...timed];
    });
  }
}
