import type { Page } from '@playwright/test';

/**
 * How many pixels two PNG screenshots differ in by more than `tolerance` in any colour channel,
 * counted in the browser (every pixel, when their sizes differ).
 */
export async function differingPixels(page: Page, a: Buffer, b: Buffer, tolerance = 0): Promise<number> {
  return page.evaluate(
    async ([first, second, allowed]) => {
      const pixels = async (png: string) => {
        const image = new Image();
        image.src = `data:image/png;base64,${png}`;
        await image.decode();
        const canvas = new OffscreenCanvas(image.width, image.height);
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        return context.getImageData(0, 0, image.width, image.height);
      };
      const [p, q] = [await pixels(first), await pixels(second)];
      if (p.width !== q.width || p.height !== q.height) return Math.max(p.width * p.height, q.width * q.height);
      let differing = 0;
      for (let i = 0; i < p.data.length; i += 4) {
        const delta = Math.max(Math.abs(p.data[i]! - q.data[i]!), Math.abs(p.data[i + 1]! - q.data[i + 1]!), Math.abs(p.data[i + 2]! - q.data[i + 2]!));
        if (delta > allowed) differing++;
      }
      return differing;
    },
    [a.toString('base64'), b.toString('base64'), tolerance] as const,
  );
}
