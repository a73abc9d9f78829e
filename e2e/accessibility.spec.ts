import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, widget } from './fixtures';
import { violationsOn } from './axeCheck';
import { screenshotStop, screenTour, TOUR_STOPS, type Language, type Stop } from './screenTour';

// axe-core over every screen of every view, reaching into the widget's shadow roots (axe runs on the
// widget's hosts only): any WCAG 2.2 A or AA violation fails, in both languages, in both colour schemes,
// at both widths. And phones: every screen at 320 and 375 px wide scrolls only downwards, never
// sideways. One walk per language (a walk is some two minutes, most of it the flows that reach the
// screens); at each stop the page is looked at four times without leaving it: at 1000 px and at 375 px
// in one scheme, then at 375 px and at 1000 px in the other (the widget's darkMode 'auto' follows the
// scheme the page emulates, and the viewport is resized, never reloaded).
// The same walks write the screenshots to e2e/screenshots/, with what changes from run to run masked:
// at 1000 px in the first scheme and at 375 px in the second.

type Scheme = 'dark' | 'light';
const WALKS: { language: Language; desktop: Scheme; mobile: Scheme }[] = [
  { language: 'en', desktop: 'dark', mobile: 'light' },
  { language: 'de', desktop: 'light', mobile: 'dark' },
];
const DESKTOP = { width: 1000, height: 720 };
const PHONE_HEIGHT = 740;

test.use({ viewport: DESKTOP });
test.describe.configure({ mode: 'parallel' });

/** Emulates the scheme and waits until the widget (its body class and shadow roots) follows it. */
async function useScheme(page: Page, scheme: Scheme): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((dark) => {
    if (document.body.classList.contains('cb-dark') !== dark) return false;
    const roots = [...document.querySelectorAll('#widget, #user-details')].map((host) => host.shadowRoot?.querySelector('.cb-root'));
    return roots.every((root) => !root || root.classList.contains('cb-dark') === dark);
  }, scheme === 'dark');
}

const shotPath = (folder: URL, stop: Stop) => new URL(`${String(TOUR_STOPS.indexOf(stop.name) + 1).padStart(2, '0')}-${stop.name}.png`, folder).pathname;

for (const { language, desktop, mobile } of WALKS) {
  test(`every screen, ${language}: no axe violation at 1000 and 375 px in light and dark, no sideways scroll at 320 and 375 px`, async ({ page }) => {
    test.setTimeout(480_000); // the whole walk, every stop of TOUR_STOPS, looked at four times
    const desktopFolder = new URL(`./screenshots/desktop-${language}-${desktop}/`, import.meta.url);
    const mobileFolder = new URL(`./screenshots/mobile-${language}-${mobile}/`, import.meta.url);
    for (const folder of [desktopFolder, mobileFolder]) mkdirSync(folder, { recursive: true });
    const violations: Record<string, string[]> = {};
    const overflowing: Record<string, string[]> = {};
    const seen: string[] = [];
    await screenTour(page, { language, dark: 'auto', tag: `axe-${language}` }, async (stop) => {
      seen.push(stop.name);
      const on = stop.page;
      const look = async (width: number, scheme: Scheme) => {
        violations[`${stop.name} at ${width} px, ${scheme}`] = await violationsOn(on);
      };
      const phone = async (scheme: Scheme) => {
        for (const width of [320, 375]) {
          await on.setViewportSize({ width, height: PHONE_HEIGHT });
          const { scrollWidth, clientWidth } = await on.evaluate(() => {
            const { scrollWidth, clientWidth } = document.documentElement;
            return { scrollWidth, clientWidth };
          });
          expect(clientWidth).toBe(width);
          if (scrollWidth > clientWidth) (overflowing[stop.name] ??= []).push(`${width} px, ${scheme}`);
        }
        await look(375, scheme);
      };
      // 1000 px, then 375 px in the first scheme; 375 px, then 1000 px in the other: three resizes a stop
      await on.setViewportSize(DESKTOP);
      await useScheme(on, desktop);
      await look(1000, desktop);
      await screenshotStop(stop, shotPath(desktopFolder, stop));
      await phone(desktop);
      await useScheme(on, mobile);
      await phone(mobile);
      await screenshotStop(stop, shotPath(mobileFolder, stop), true);
      await on.setViewportSize(DESKTOP);
      await look(1000, mobile);
      // the walk goes on at 1000 px, as it came
    });
    console.info(`axe, ${language}: ${Object.entries(violations).map(([name, list]) => `${name} ${list.length}`).join(', ')}`);
    expect(seen).toEqual([...TOUR_STOPS]);
    // every stop at both widths in both schemes
    expect(Object.keys(violations)).toHaveLength(TOUR_STOPS.length * 4);
    expect(overflowing).toEqual({});
    expect(Object.fromEntries(Object.entries(violations).filter(([, list]) => list.length))).toEqual({});
  });
}

// the switch of scheme above reaches the widget: its text colour differs between the two
test('the emulated colour scheme switches the widget between its light and dark colours', async ({ page }) => {
  await page.goto('/login.html?dark=auto');
  await expect(widget(page).getByRole('heading', { name: 'Log in' })).toBeVisible();
  const background = () => widget(page).locator('.cb-root').evaluate((root) => getComputedStyle(root).color);
  await useScheme(page, 'light');
  const light = await background();
  await useScheme(page, 'dark');
  expect(await background()).not.toBe(light);
  await useScheme(page, 'light');
  expect(await background()).toBe(light);
});

// the check above finds what it is meant to find, inside the widget's shadow root
test('the axe check reports a violation inside the widget', async ({ page }) => {
  await page.goto('/login.html');
  await expect(widget(page).getByRole('heading', { name: 'Log in' })).toBeVisible();
  expect(await violationsOn(page)).toEqual([]);
  await page.evaluate(() => document.querySelector('#widget')!.shadowRoot!.querySelector('form')!.append(document.createElement('button')));
  expect((await violationsOn(page)).join('\n')).toMatch(/^button-name: #widget/);
});
