// Section "evaluate": how long the main thread spends compiling and running the bundle before
// anything is mounted, at 4x CPU slowdown. Optionally beside other builds of the bundle (a base
// commit's), interleaved run by run so that load on the machine hits all of them alike.
import { readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import type { Browser } from '@playwright/test';
import { median, percentile, round } from './stats.ts';

export type EvaluateFigures = {
  /** the file measured, as given */
  file: string;
  bytes: number;
  /** main-thread CPU time of the script's EvaluateScript trace event (compile + run), ms */
  threadMs: { median: number; p25: number; p75: number; min: number; max: number };
  /** wall-clock time around appending the inline script, ms */
  wallMs: { median: number; p25: number; p75: number };
  runs: number;
};

/** the fields of a trace event read here (tdur: thread time in µs) */
type TraceEvent = { name: string; ph: string; tdur?: number };

/** A file inside the repository by its relative path, any other by its name alone (no machine paths in results). */
const label = (file: string) => {
  const inside = relative(process.cwd(), file);
  return inside.startsWith('..') || inside.startsWith('/') ? basename(file) : inside;
};

const summary = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: round(median(sorted)), p25: round(percentile(sorted, 25)), p75: round(percentile(sorted, 75)), min: round(sorted[0]!), max: round(sorted.at(-1)!) };
};

/**
 * Each run: a new page (about:blank with the widget's target element), 4x CPU slowdown, a trace of the
 * timeline category, then the bundle appended as an inline script. A comment with the run's number at
 * the end makes every source unique, so V8's code cache never serves a compiled copy. The first round
 * is a warm-up and is not counted.
 */
export async function evaluateBench(browser: Browser, files: readonly string[], runs: number, say: (text: string) => void): Promise<EvaluateFigures[]> {
  const sources = files.map((file) => readFileSync(file, 'utf8'));
  const thread = files.map((): number[] => []);
  const wall = files.map((): number[] => []);
  for (let run = -1; run < runs; run++) {
    for (const [index, source] of sources.entries()) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.setContent('<!doctype html><div id="w"></div>');
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await browser.startTracing(page, { categories: ['devtools.timeline'] });
        const elapsed = await page.evaluate((text) => {
          const script = document.createElement('script');
          script.textContent = text;
          const start = performance.now();
          document.head.append(script);
          const end = performance.now();
          if (!(window as unknown as { Corbado?: unknown }).Corbado) throw new Error('the bundle defined no Corbado global');
          return end - start;
        }, `${source}\n// evaluate run ${run} of file ${index}\n`);
        const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
        // the longest EvaluateScript is the bundle's (page.evaluate's own wrapper is tiny)
        const evaluations = trace.traceEvents.filter((event) => event.name === 'EvaluateScript' && event.ph === 'X' && typeof event.tdur === 'number');
        const longest = evaluations.sort((a, b) => b.tdur! - a.tdur!)[0];
        if (!longest) throw new Error('no EvaluateScript event in the trace');
        if (run >= 0) {
          thread[index]!.push(longest.tdur! / 1000);
          wall[index]!.push(elapsed);
        }
      } finally {
        await context.close();
      }
    }
    if (run >= 0 && (run + 1) % 10 === 0) say(`    ${run + 1}/${runs} runs`);
  }
  return files.map((file, index) => {
    const threadMs = summary(thread[index]!);
    const wallSummary = summary(wall[index]!);
    return {
      file: label(file),
      bytes: Buffer.byteLength(sources[index]!),
      threadMs,
      wallMs: { median: wallSummary.median, p25: wallSummary.p25, p75: wallSummary.p75 },
      runs,
    };
  });
}
