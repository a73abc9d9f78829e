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
      { id: '5.e', rule: 'a deviation without a test', deviation: 'does otherwise', reason: 'none can' },
      { id: '5.f', rule: 'a deviation with a test', deviation: 'does otherwise, because' },
    ];
    const tests = [
      { file: 'x.test.ts', line: 1, title: 'one', ids: ['5.a', '5.d', '5.f'] },
      { file: 'x.test.ts', line: 2, title: 'two', ids: ['9.nowhere'] },
    ];
    expect(checkCoverage(rules, tests).map((p) => p.kind).sort()).toEqual(['deviation-without-test', 'duplicate-id', 'reason-and-test', 'unknown-tag', 'unpinned']);
  });

  it('lists each deviation at the top and with its rule', () => {
    const rules = [
      { id: '4.a', rule: 'polls 120 times', deviation: 'polls while the link lives, because it lives longer' },
      { id: '4.b', rule: 'as SPEC says' },
    ];
    const tests = [{ file: 'x.test.ts', line: 1, title: 'polls', ids: ['4.a', '4.b'] }];
    const text = renderCoverage(rules, tests);
    expect(text).toContain('## Deviations from SPEC');
    expect(text).toContain('* **4.a**: polls while the link lives, because it lives longer');
    expect(text).toContain('| **4.a** polls 120 times<br>**Deviation:** polls while the link lives, because it lives longer | `x.test.ts` polls |');
    expect(text).not.toContain('**4.b**:');
  });
});
