import { mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';
import { violationsOn } from './axeCheck';
import { screenshotStop, screenTour, TOUR_STOPS, type Language } from './screenTour';

// Phones: every screen at 320 and 375 px wide scrolls only downwards, never sideways, and has no axe
// violation at 375 px (accessibility.spec.ts checks the other two combinations of language and
// scheme at 1000 px). The same walk writes the mobile screenshots (375 px) to e2e/screenshots/.

const COMBINATIONS: { language: Language; dark: boolean }[] = [
  { language: 'en', dark: false },
  { language: 'de', dark: true },
];

test.describe.configure({ mode: 'parallel' });

for (const { language, dark } of COMBINATIONS) {
  const combination = `${language}-${dark ? 'dark' : 'light'}`;
  test(`no horizontal scroll at 320 and 375 px and no axe violation on any screen, ${combination}`, async ({ page }) => {
    test.setTimeout(300_000); // the whole walk, every stop of TOUR_STOPS
    await page.setViewportSize({ width: 375, height: 740 });
    const folder = new URL(`./screenshots/mobile-${combination}/`, import.meta.url);
    mkdirSync(folder, { recursive: true });
    const overflowing: Record<string, number[]> = {};
    const violations: Record<string, string[]> = {};
    await screenTour(page, { language, dark, tag: `narrow-${combination}` }, async (stop) => {
      for (const width of [320, 375]) {
        await stop.page.setViewportSize({ width, height: 740 });
        const { scrollWidth, clientWidth } = await stop.page.evaluate(() => {
          const { scrollWidth, clientWidth } = document.documentElement;
          return { scrollWidth, clientWidth };
        });
        expect(clientWidth).toBe(width);
        if (scrollWidth > clientWidth) (overflowing[stop.name] ??= []).push(width);
      }
      violations[stop.name] = await violationsOn(stop.page);
      await screenshotStop(stop, new URL(`${String(TOUR_STOPS.indexOf(stop.name) + 1).padStart(2, '0')}-${stop.name}.png`, folder).pathname, true);
    });
    expect(overflowing).toEqual({});
    expect(Object.keys(violations)).toEqual([...TOUR_STOPS]);
    expect(Object.fromEntries(Object.entries(violations).filter(([, list]) => list.length))).toEqual({});
  });
}
