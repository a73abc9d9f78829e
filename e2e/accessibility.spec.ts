import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { screenshotStop, screenTour, TOUR_STOPS, type Language } from './screenTour';

// axe-core over every screen of every view, in light and dark, English and German, reaching into the
// widget's shadow roots. Any WCAG 2.2 A or AA violation fails. The same walk writes the desktop
// screenshots (e2e/screenshots/), with what changes from run to run masked.

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
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
    test.setTimeout(150_000);
    const folder = new URL(`./screenshots/desktop-${combination}/`, import.meta.url);
    mkdirSync(folder, { recursive: true });
    const violations: Record<string, string[]> = {};
    await screenTour(page, { language, dark, tag: `axe-${combination}` }, async (stop) => {
      const { name, page: on } = stop;
      // label-content-name-mismatch is WCAG 2.5.3 but still marked experimental, so it is switched on by name
      const axe = new AxeBuilder({ page: on }).withTags(WCAG).options({ rules: { 'label-content-name-mismatch': { enabled: true } } });
      for (const host of ['#widget', '#user-details']) if (await on.locator(host).count()) axe.include(host);
      const { violations: found } = await axe.analyze();
      violations[name] = found.flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(' ')} ${node.failureSummary ?? ''}`));
      await screenshotStop(stop, new URL(`${String(TOUR_STOPS.indexOf(name) + 1).padStart(2, '0')}-${name}.png`, folder).pathname);
    });
    console.info(`axe, ${combination}: ${Object.entries(violations).map(([name, list]) => `${name} ${list.length}`).join(', ')}`);
    expect(Object.keys(violations)).toEqual([...TOUR_STOPS]);
    expect(Object.fromEntries(Object.entries(violations).filter(([, list]) => list.length))).toEqual({});
  });
}
