import type { Page } from '@playwright/test';
import axe from 'axe-core';
import { expect } from './fixtures';

// axe-core is put into each document once and run there with `axe.run`: the Playwright wrapper would
// inject its 0.5 MB source again and open a blank page for every check, which took two thirds of the
// sweep's time. The pages have no frames (checked), so a run in the page sees all a wrapper would.

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * The WCAG violations axe finds inside the widget's host elements on a page (or inside `hosts`: the
 * console checks its whole app, `#console`), one line per node.
 */
export async function violationsOn(page: Page, hosts: readonly string[] = ['#widget', '#user-details']): Promise<string[]> {
  expect(page.frames()).toHaveLength(1);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const include: string[][] = [];
  for (const host of hosts) if (await page.locator(host).count()) include.push([host]);
  const { violations } = await page.evaluate(
    ([include, tags]) =>
      (window as unknown as { axe: typeof axe }).axe.run(
        { include },
        // label-content-name-mismatch is WCAG 2.5.3 but still marked experimental, so it is switched on by
        // name; only the violations are read, so axe details no other result (every rule still runs)
        { runOnly: { type: 'tag', values: tags }, rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] },
      ),
    [include, WCAG] as const,
  );
  return violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(' ')} ${node.failureSummary ?? ''}`));
}
