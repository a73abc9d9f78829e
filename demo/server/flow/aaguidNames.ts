// Authenticator names by AAGUID, read from aaguids.tsv next to this file.
import { readFileSync } from 'node:fs';

let table: Map<string, string> | undefined;

function load(): Map<string, string> {
  const text = readFileSync(new URL('../aaguids.tsv', import.meta.url), 'utf8');
  const map = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [aaguid, name] = line.split('\t');
    if (aaguid && name) map.set(aaguid.trim().toLowerCase(), name.trim());
  }
  return map;
}

/** The authenticator's name, or "Passkey" for an unknown AAGUID. */
export function aaguidName(aaguid: string): string {
  table ??= load();
  return table.get(aaguid.toLowerCase()) ?? 'Passkey';
}
