// The project's own authenticator icons: a rounded tile with a few letters or a small key, in a light
// variant (dark ink on a pale tile) and a dark one (light ink on a dark tile). Brand-neutral on purpose:
// no vendor's logo, only the initials of the name the catalogue gives. Each is a few hundred bytes.

export type Shade = 'light' | 'dark';

export interface IconPair {
  light: string;
  dark: string;
}

/** A data URL of an SVG image. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

function tile(hue: number, shade: Shade, content: (ink: string) => string): string {
  const [paper, ink] = shade === 'light' ? [`hsl(${hue},60%,94%)`, `hsl(${hue},55%,30%)`] : [`hsl(${hue},30%,17%)`, `hsl(${hue},70%,86%)`];
  return svgDataUrl(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="1" y="1" width="30" height="30" rx="7" fill="${paper}" stroke="${ink}" stroke-width="1.5"/>${content(ink)}</svg>`,
  );
}

function pair(hue: number, content: (ink: string) => string): IconPair {
  return { light: tile(hue, 'light', content), dark: tile(hue, 'dark', content) };
}

/** A tile with one to three letters (the initials of an authenticator's name). */
export function letterIcons(letters: string, hue: number): IconPair {
  if (!/^[0-9A-Za-z]{1,3}$/.test(letters)) throw new Error(`an icon holds one to three letters or digits, got "${letters}"`);
  const size = letters.length > 2 ? 10 : 13;
  return pair(
    hue,
    (ink) =>
      `<text x="16" y="${16 + size * 0.36}" font-family="sans-serif" font-size="${size}" font-weight="700" text-anchor="middle" fill="${ink}">${letters}</text>`,
  );
}

/** "Passkey": a key on a tile, for an authenticator the catalogue does not know (or gives no icon for). */
export const DEFAULT_ICONS: IconPair = pair(
  215,
  (ink) =>
    `<g fill="none" stroke="${ink}" stroke-width="2.2" stroke-linecap="round"><circle cx="11.5" cy="16" r="4.5"/><path d="M16 16h9.5M22.5 16v3.5M25.5 16v2.5"/></g>`,
);
