import { describe, expect, it } from 'vitest';
import { runStages, stageLines, stageTable } from './stages.ts';

const node = (code: string) => [process.execPath, '-e', code];
// about 300 ms of CPU in a child of the stage's command (a grandchild of the runner)
const busy = `require('node:child_process').execFileSync(process.execPath, ['-e', 'const end = Date.now() + 300; while (Date.now() < end);'])`;

describe('the stage runner', () => {
  it("times each stage, its children's CPU included, runs a step's stages at the same time, and stops after a failure", async () => {
    let written = '';
    const started = performance.now();
    const results = await runStages(
      [
        { name: 'busy', command: node(busy) },
        [
          { name: 'waits-a', command: node('setTimeout(() => console.log("a done"), 400)') },
          { name: 'waits-b', command: node('setTimeout(() => { console.error("b broke"); process.exit(3) }, 400)') },
        ],
        { name: 'later', command: node('') },
      ],
      (text) => (written += text),
    );
    const elapsed = performance.now() - started;
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['busy', 'passed'],
      ['waits-a', 'passed'],
      ['waits-b', 'failed'],
      ['later', 'not run'],
    ]);
    expect(results[0]!.cpuMs).toBeGreaterThanOrEqual(250);
    expect(results[0]!.wallMs).toBeGreaterThanOrEqual(300);
    // the two waits overlapped: together less than one after the other
    expect(results[1]!.wallMs).toBeGreaterThanOrEqual(400);
    expect(elapsed).toBeLessThan(results[0]!.wallMs + results[1]!.wallMs + results[2]!.wallMs - 250);
    // the stages of a step that ran together print their output whole, each under its name
    expect(written).toContain('── waits-a (passed) ──\na done\n');
    expect(written).toContain('── waits-b (failed) ──\nb broke\n');

    const table = stageTable(results, elapsed).split('\n');
    expect(table[0]).toMatch(/^stage\s+wall\s+CPU\s+result$/);
    expect(table[1]).toMatch(/^busy\s+\d+\.\d s\s+0\.[2-9] s\s+passed$/);
    expect(table[3]).toMatch(/^waits-b\s+\d+\.\d s\s+\d+\.\d s\s+failed$/);
    expect(table[4]).toMatch(/^later\s+-\s+-\s+not run$/);
    expect(table[5]).toMatch(/^total\s+\d+\.\d s\s+\d+\.\d s\s+failed$/);
    expect(stageLines(results).split('\n')[3]).toBe('later\t0\t0\tnot run');
  });
});
