import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runStages, stageLines, stageTable, TAIL_LINES } from './stages.ts';

const node = (code: string) => [process.execPath, '-e', code];
// 300 ms of CPU (not of the clock: the machine may be busy) in a child of the stage's command, a
// grandchild of the runner
const busy = `require('node:child_process').execFileSync(process.execPath, ['-e', 'while (process.cpuUsage().user < 300000);'])`;
// each of the two waits until the other has started (a file of its own), which only stages running at
// the same time can do; alone it gives up after 20 s
const meet = (mine: string, theirs: string, after: string) =>
  node(`const fs = require('node:fs'); fs.writeFileSync(${JSON.stringify(mine)}, ''); const end = Date.now() + 20000;
    const wait = () => fs.existsSync(${JSON.stringify(theirs)}) ? (${after}) : Date.now() > end ? process.exit(9) : setTimeout(wait, 20); wait();`);

describe('the stage runner', () => {
  it("times each stage, its children's CPU included, runs a step's lanes at the same time and a lane's stages in turn, and stops after a failure", { timeout: 60_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'stages-test-'));
    const [a, b, aDone] = [join(folder, 'a'), join(folder, 'b'), join(folder, 'a-done')];
    let written = '';
    const started = performance.now();
    const results = await runStages(
      [
        { name: 'busy', command: node(busy) },
        [
          [
            { name: 'waits-a', command: meet(a, b, `(require('node:fs').writeFileSync(${JSON.stringify(aDone)}, ''), console.log("a done"))`) },
            // only once waits-a has ended (its file is there), with a variable of its own
            { name: 'after-a', command: node(`process.exit(require('node:fs').existsSync(${JSON.stringify(aDone)}) ? (console.log(process.env.STAGE_ONLY), 0) : 8)`), env: { STAGE_ONLY: 'mine' } },
          ],
          [
            { name: 'waits-b', command: meet(b, a, '(console.error("b broke", process.env.STAGE_ONLY ?? "unset"), process.exit(3))') },
            { name: 'after-b', command: node('') },
          ],
        ],
        { name: 'later', command: node('') },
      ],
      (text) => (written += text),
    );
    const elapsed = performance.now() - started;
    rmSync(folder, { recursive: true, force: true });
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['busy', 'passed'],
      ['waits-a', 'passed'],
      ['after-a', 'passed'],
      ['waits-b', 'failed'],
      ['after-b', 'not run'],
      ['later', 'not run'],
    ]);
    expect(results[0]!.cpuMs).toBeGreaterThanOrEqual(300);
    expect(results[0]!.wallMs).toBeGreaterThanOrEqual(300);
    // the stages of a step that ran together print their output whole, each under its name
    expect(written).toContain('── waits-a (passed) ──\na done\n');
    expect(written).toContain('── after-a (passed) ──\nmine\n');
    expect(written).toContain('── waits-b (failed) ──\nb broke unset\n');
    expect(written).not.toContain('after-b');
    // and the failed one's last lines again at the very end, after everything else that was written
    expect(written.endsWith(`\n── waits-b failed; its last ${TAIL_LINES} lines again ──\nb broke unset\n`)).toBe(true);
    expect(results.find((r) => r.name === 'waits-a')!.tail).toBeUndefined();

    const table = stageTable(results, elapsed).split('\n');
    expect(table[0]).toMatch(/^stage\s+wall\s+CPU\s+result$/);
    expect(table[1]).toMatch(/^busy\s+\d+\.\d s\s+\d\.\d s\s+passed$/);
    expect(table[4]).toMatch(/^waits-b\s+\d+\.\d s\s+\d+\.\d s\s+failed$/);
    expect(table[5]).toMatch(/^after-b\s+-\s+-\s+not run$/);
    expect(table[6]).toMatch(/^later\s+-\s+-\s+not run$/);
    expect(table[7]).toMatch(/^total\s+\d+\.\d s\s+\d+\.\d s\s+failed$/);
    expect(stageLines(results).split('\n')[5]).toBe('later\t0\t0\tnot run');
  });
});
