// Writes server/aaguids/catalogue.json, the project's own AAGUID catalogue, from the known
// authenticators in aaguids.tsv: each name with a light and a dark tile of its initials (icons.ts).
// `npx tsx scripts/draw-aaguid-catalogue.ts` after a change to the table or the drawing.
import { readFileSync, writeFileSync } from 'node:fs';
import { letterIcons } from '../server/aaguids/icons.ts';

const folder = new URL('../server/aaguids/', import.meta.url);

/** The letters on each tile; a name left out ("Chromium Browser", a generic browser entry) has no icon. */
const LETTERS: Record<string, string> = {
  'Google Password Manager': 'GP',
  'Chrome on Mac': 'CM',
  'Windows Hello': 'WH',
  'iCloud Keychain (Managed)': 'iKM',
  Dashlane: 'Da',
  '1Password': '1P',
  NordPass: 'NP',
  Keeper: 'Ke',
  Enpass: 'En',
  'Edge on Mac': 'EM',
  IDmelon: 'ID',
  Bitwarden: 'Bw',
  'iCloud Keychain': 'iK',
  'Samsung Pass': 'SP',
  'Thales Bio iOS SDK': 'TBi',
  'Thales Bio Android SDK': 'TBa',
  'Thales PIN Android SDK': 'TPa',
  'Thales PIN iOS SDK': 'TPi',
  'Proton Pass': 'PP',
  KeePassXC: 'KX',
};
// hues spread around the wheel, one after another per name: no vendor's colours
const HUES = [212, 160, 268, 28, 335, 120, 190, 295, 45, 0];

const catalogue: Record<string, { name: string; icon_light?: string; icon_dark?: string }> = {};
const hueOf = new Map<string, number>();
for (const line of readFileSync(new URL('aaguids.tsv', folder), 'utf8').split('\n')) {
  if (!line.trim() || line.startsWith('#')) continue;
  const [aaguid, name] = line.split('\t').map((cell) => cell.trim()) as [string, string];
  const letters = LETTERS[name];
  if (!letters) {
    catalogue[aaguid] = { name };
    continue;
  }
  if (!hueOf.has(name)) hueOf.set(name, HUES[hueOf.size % HUES.length]!);
  const icons = letterIcons(letters, hueOf.get(name)!);
  catalogue[aaguid] = { name, icon_light: icons.light, icon_dark: icons.dark };
}
writeFileSync(new URL('catalogue.json', folder), `${JSON.stringify(catalogue, null, 2)}\n`);
console.info(`${Object.keys(catalogue).length} authenticators written to server/aaguids/catalogue.json`);
