import type { Page } from '@playwright/test';
import axe from 'axe-core';
import { mkdirSync } from 'node:fs';
import { expect, test, widget } from './fixtures';
import { screenshotStop, screenTour, TOUR_STOPS, type Language } from './screenTour';

// axe-core over every screen of every view, in light and dark, English and German, reaching into the
// widget's shadow roots. Any WCAG 2.2 A or AA violation fails. The same walk writes the desktop
// screenshots (e2e/screenshots/), with what changes from run to run masked.
//
// axe-core is put into each document once and run there with `axe.run`: the Playwright wrapper would
// inject its 0.5 MB source again and open a blank page for every check, which took two thirds of the
// sweep's time. The pages have no frames (checked), so a run in the page sees all a wrapper would.

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** The WCAG violations axe finds inside the widget's host elements on a page, one line per node. */
async function violationsOn(page: Page): Promise<string[]> {
  expect(page.frames()).toHaveLength(1);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const include: string[][] = [];
  for (const host of ['#widget', '#user-details']) if (await page.locator(host).count()) include.push([host]);
  const { violations } = await page.evaluate(
    ([include, tags]) =>
      (window as unknown as { axe: typeof axe }).axe.run(
        { include },
        // label-content-name-mismatch is WCAG 2.5.3 but still marked experimental, so it is switched on by name
        { runOnly: { type: 'tag', values: tags }, rules: { 'label-content-name-mismatch': { enabled: true } } },
      ),
    [include, WCAG] as const,
  );
  return violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(' ')} ${node.failureSummary ?? ''}`));
}
const COMBINATIONS: { language: Language; dark: boolean }[] = [
  { language: 'en', dark: false },
  { language: 'en', dark: true },
  { language: 'de', dark: false },
  { language: 'de', dark: true },
];

test.use({ viewport: { width: 1000, height: 720 } });
test.describe.configure({ mode: 'parallel' });

for (const { language, dark } of COMBINATIONS) {
  const combination = `${language}-${dark ? 'dark' : 'light'}`;
  test(`no axe violation on any screen, ${combination}`, async ({ page }) => {
    test.setTimeout(240_000); // the whole walk: 23 stops, each with its checks, on a 2-core machine shared with other work
    const folder = new URL(`./screenshots/desktop-${combination}/`, import.meta.url);
    mkdirSync(folder, { recursive: true });
    const violations: Record<string, string[]> = {};
    await screenTour(page, { language, dark, tag: `axe-${combination}` }, async (stop) => {
      violations[stop.name] = await violationsOn(stop.page);
      await screenshotStop(stop, new URL(`${String(TOUR_STOPS.indexOf(stop.name) + 1).padStart(2, '0')}-${stop.name}.png`, folder).pathname);
    });
    console.info(`axe, ${combination}: ${Object.entries(violations).map(([name, list]) => `${name} ${list.length}`).join(', ')}`);
    expect(Object.keys(violations)).toEqual([...TOUR_STOPS]);
    expect(Object.fromEntries(Object.entries(violations).filter(([, list]) => list.length))).toEqual({});
  });
}

// the check above finds what it is meant to find, inside the widget's shadow root
test('the axe check reports a violation inside the widget', async ({ page }) => {
  await page.goto('/login.html');
  await expect(widget(page).getByRole('heading', { name: 'Log in' })).toBeVisible();
  expect(await violationsOn(page)).toEqual([]);
  await page.evaluate(() => document.querySelector('#widget')!.shadowRoot!.querySelector('form')!.append(document.createElement('button')));
  expect((await violationsOn(page)).join('\n')).toMatch(/^button-name: #widget/);
});
