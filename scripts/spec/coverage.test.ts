import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkCoverage, coverageFile, findTaggedTests, renderCoverage } from './coverage';
import { specRules } from './rules';

describe('SPEC coverage', () => {
  it('every rule of SPEC sections 1 to 9 is pinned by a test or says why none can', () => {
    expect(specRules.length).toBeGreaterThan(0);
    expect(checkCoverage()).toEqual([]);
  });

  it('SPEC-COVERAGE.md is current (npm run spec:coverage rewrites it)', () => {
    expect(readFileSync(coverageFile, 'utf8')).toBe(renderCoverage());
  });

  it('finds the tags in titles of it, test and describe calls, and only there', () => {
    const tests = findTaggedTests();
    expect(tests.length).toBeGreaterThan(0);
    expect(tests.every((t) => t.ids.length > 0 && !t.title.includes('[spec '))).toBe(true);
  });

  it('names each kind of problem', () => {
    const rules = [
      { id: '5.a', rule: 'pinned' },
      { id: '5.b', rule: 'neither a test nor a reason' },
      { id: '5.c', rule: 'a reason', reason: 'not shown' },
      { id: '5.a', rule: 'the same id twice' },
      { id: '5.d', rule: 'a test and a reason', reason: 'both' },
    ];
    const tests = [
      { file: 'x.test.ts', line: 1, title: 'one', ids: ['5.a', '5.d'] },
      { file: 'x.test.ts', line: 2, title: 'two', ids: ['9.nowhere'] },
    ];
    expect(checkCoverage(rules, tests).map((p) => p.kind).sort()).toEqual(['duplicate-id', 'reason-and-test', 'unknown-tag', 'unpinned']);
  });
});
