// Which authenticator made a passkey, by its AAGUID: a name and a light and a dark icon for the passkey
// list (`aaguidDetails`). The catalogue is a JSON file in the shape of the community
// "passkey-authenticator-aaguids" list, an object keyed by AAGUID:
//   { "<aaguid>": { "name": "…", "icon_light": "data:image/svg+xml;base64,…", "icon_dark": "data:…" } }
// The project ships its own (catalogue.json, with icons drawn for it: icons.ts); AAGUID_CATALOGUE names
// another file, read and checked once at start-up. An unknown AAGUID is "Passkey" with DEFAULT_ICONS.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AaguidDetails } from '../../src/core/api/types.ts';
import { DEFAULT_ICONS } from './icons.ts';

// a path, not a URL object: under a browser-like test environment (happy-dom) the global URL is not Node's
export const DEFAULT_CATALOGUE = join(dirname(fileURLToPath(import.meta.url)), 'catalogue.json');
export const UNKNOWN_NAME = 'Passkey';

const AAGUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// images only, inline only: the widget shows them in <img>, and a URL elsewhere would tell a third
// party each time someone opens their passkey list
const IMAGE_DATA_URL = /^data:image\/(?:svg\+xml|png|jpeg|gif|webp)(?:;[^,]*)?,./;

export class AaguidCatalogue {
  private constructor(private readonly entries: ReadonlyMap<string, AaguidDetails>) {}

  /** Reads and checks a catalogue file; throws an Error naming the file and what is wrong with it. */
  static load(file: string | URL = DEFAULT_CATALOGUE): AaguidCatalogue {
    const path = typeof file === 'string' ? file : fileURLToPath(file);
    const fail = (reason: string) => new Error(`The AAGUID catalogue ${path} (AAGUID_CATALOGUE) cannot be used: ${reason}`);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw fail(`it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw fail(`it is not JSON (${(error as Error).message})`);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw fail('it must be a JSON object keyed by AAGUID, e.g. {"<aaguid>": {"name": "…", "icon_light": "data:image/…", "icon_dark": "data:image/…"}}');
    }
    const entries = new Map<string, AaguidDetails>();
    for (const [aaguid, entry] of Object.entries(json)) {
      if (!AAGUID.test(aaguid)) throw fail(`"${aaguid}" is not an AAGUID (8-4-4-4-12 hexadecimal digits)`);
      if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw fail(`the entry of ${aaguid} must be an object`);
      const { name, icon_light: light, icon_dark: dark } = entry as Record<string, unknown>;
      if (typeof name !== 'string' || !name.trim()) throw fail(`the entry of ${aaguid} has no name`);
      for (const [field, icon] of [['icon_light', light], ['icon_dark', dark]] as const) {
        if (icon !== undefined && icon !== null && (typeof icon !== 'string' || !IMAGE_DATA_URL.test(icon))) {
          throw fail(`${field} of ${aaguid} must be an image as a data: URL (data:image/svg+xml;base64,… or data:image/png;base64,…)`);
        }
      }
      // an entry with one icon shows it in both modes; one without any (a generic browser) the default pair
      const iconLight = (light as string | null | undefined) || (dark as string | null | undefined);
      const iconDark = (dark as string | null | undefined) || iconLight;
      entries.set(aaguid.toLowerCase(), {
        name: name.trim(),
        iconLight: iconLight ?? DEFAULT_ICONS.light,
        iconDark: iconDark ?? DEFAULT_ICONS.dark,
      });
    }
    return new AaguidCatalogue(entries);
  }

  /** The catalogue's name and icons for an AAGUID; "Passkey" and the default icons for one it does not know. */
  details(aaguid: string): AaguidDetails {
    return this.entries.get(aaguid.toLowerCase()) ?? { name: UNKNOWN_NAME, iconLight: DEFAULT_ICONS.light, iconDark: DEFAULT_ICONS.dark };
  }
}
