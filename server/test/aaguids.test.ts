/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// Authenticator names and icons (`aaguidDetails` of the passkey list): the project's own catalogue holds
// every authenticator of SPEC's table with two icons of its own; the server answers them per passkey, an
// unknown AAGUID as "Passkey" with the default icons; AAGUID_CATALOGUE replaces the catalogue, and one
// that cannot be used stops the start-up with a message that names the file and the fault.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AaguidCatalogue, DEFAULT_CATALOGUE } from '../aaguids/AaguidCatalogue.ts';
import { DEFAULT_ICONS } from '../aaguids/icons.ts';
import { userWithPasskey } from './helpers/passkeyUser.ts';
import { START_BOUND_MS, startServerProcess } from './helpers/serverProcess.ts';
import { SoftAuthenticator } from './helpers/softAuthenticator.ts';
import { serverForThisFile } from './helpers/testServer.ts';

const server = serverForThisFile();
const ONE_PASSWORD = 'bada5566-a7aa-401f-bd96-45619a55120d';
const UNKNOWN = '0badc0de-0000-4000-8000-00000000beef';
const GENERIC_BROWSER = 'Chromium Browser';

/** SPEC's table: AAGUID → name. */
const known = readFileSync(new URL('../aaguids/aaguids.tsv', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() && !line.startsWith('#'))
  .map((line) => line.split('\t').map((cell) => cell.trim()) as [string, string]);
const shipped = JSON.parse(readFileSync(DEFAULT_CATALOGUE, 'utf8')) as Record<string, { name: string; icon_light?: string; icon_dark?: string }>;

/** The SVG inside a data URL, checked to be one small, well-formed SVG document. */
function svgOf(url: string): string {
  const match = /^data:image\/svg\+xml;base64,([A-Za-z0-9+/]+=*)$/.exec(url);
  expect(match, url.slice(0, 40)).not.toBeNull();
  const svg = Buffer.from(match![1]!, 'base64').toString('utf8');
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="[\d. ]+">/);
  expect(svg.length).toBeLessThan(600);
  // every tag closed in order: a document an <img> can show
  const open: string[] = [];
  for (const [, closing, name, selfClosing] of svg.matchAll(/<(\/?)([a-z]+)[^>]*?(\/?)>/g)) {
    if (closing) expect(open.pop()).toBe(name);
    else if (!selfClosing) open.push(name!);
  }
  expect(open).toEqual([]);
  expect(svg).not.toMatch(/<script|href|url\(/i);
  return svg;
}

function tempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aaguids-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('the shipped catalogue', () => {
  it('[spec 2.authenticator-names] holds every authenticator of SPEC\'s table by name, and nothing else', () => {
    expect(known.length).toBeGreaterThanOrEqual(23);
    expect(Object.keys(shipped).sort()).toEqual(known.map(([aaguid]) => aaguid).sort());
    for (const [aaguid, name] of known) expect(shipped[aaguid]?.name, aaguid).toBe(name);
  });

  it('[spec 2.authenticator-unknown] draws a light and a dark icon of its own for each, except the generic browser entry, which has none', () => {
    for (const [aaguid, name] of known) {
      const { icon_light: light, icon_dark: dark } = shipped[aaguid]!;
      if (name === GENERIC_BROWSER) {
        expect([light, dark]).toEqual([undefined, undefined]);
        continue;
      }
      const [lightSvg, darkSvg] = [svgOf(light!), svgOf(dark!)];
      expect(lightSvg, name).not.toBe(darkSvg);
    }
    // two names, two drawings; the three Windows Hello identifiers share one
    const windows = known.filter(([, name]) => name === 'Windows Hello').map(([aaguid]) => shipped[aaguid]!.icon_light);
    expect(new Set(windows).size).toBe(1);
    expect(shipped[ONE_PASSWORD]!.icon_light).not.toBe(shipped['ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4']!.icon_light);
  });

  it('[spec 3.authenticator-entry] resolves every AAGUID of the table to its name and two SVG icons, the generic browser entry to the default ones', () => {
    const catalogue = AaguidCatalogue.load();
    for (const [aaguid, name] of known) {
      const details = catalogue.details(aaguid.toUpperCase());
      expect(details.name).toBe(name);
      svgOf(details.iconLight);
      svgOf(details.iconDark);
      if (name === GENERIC_BROWSER) expect(details).toEqual({ name, iconLight: DEFAULT_ICONS.light, iconDark: DEFAULT_ICONS.dark });
    }
    expect(catalogue.details(UNKNOWN)).toEqual({ name: 'Passkey', iconLight: DEFAULT_ICONS.light, iconDark: DEFAULT_ICONS.dark });
    expect(svgOf(DEFAULT_ICONS.light)).not.toBe(svgOf(DEFAULT_ICONS.dark));
  });
});

describe('the passkey list', () => {
  it('names a known authenticator with both its icons, an unknown one "Passkey" with the default icons', async () => {
    const { client } = await userWithPasskey(server.url, new SoftAuthenticator(undefined, ONE_PASSWORD));
    server.clock.advance(1000); // the list is in creation order
    const start = await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable: true } });
    const attestationResponse = new SoftAuthenticator(undefined, UNKNOWN).create(start.body.attestationOptions);
    expect((await client.request('POST', '/v2/me/passkeys/append/finish', { attestationResponse, clientInformation: {} })).status).toBe(200);

    const { status, body } = await client.request('GET', '/v2/me/passkeys');
    expect(status).toBe(200);
    expect(body.passkeys.map((p: any) => [p.authenticatorAAGUID, p.aaguidDetails])).toEqual([
      [ONE_PASSWORD, { name: '1Password', iconLight: shipped[ONE_PASSWORD]!.icon_light, iconDark: shipped[ONE_PASSWORD]!.icon_dark }],
      [UNKNOWN, { name: 'Passkey', iconLight: DEFAULT_ICONS.light, iconDark: DEFAULT_ICONS.dark }],
    ]);
  });
});

describe('AAGUID_CATALOGUE', () => {
  const dir = tempFolder();
  // a PNG of one pixel: the community list has PNG icons too
  const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';
  const LIGHT = 'data:image/svg+xml;base64,' + Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="3"/></svg>').toString('base64');

  // each starts the API as a process of its own: the start's bound (START_BOUND_MS), not the suite's 20 s
  const PROCESS_TEST = { timeout: START_BOUND_MS + 20_000 };

  it('[spec 3.authenticator-entry] replaces the shipped catalogue: its names and icons, and an AAGUID it leaves out is "Passkey"', PROCESS_TEST, async () => {
    const file = join(dir, 'newer.json');
    writeFileSync(
      file,
      JSON.stringify({
        [UNKNOWN.toUpperCase()]: { name: 'Team Vault', icon_light: LIGHT, icon_dark: PNG, extra: 'ignored' },
        '11111111-2222-3333-4444-555555555555': { name: 'Only Light', icon_light: LIGHT },
      }),
    );
    // a SQLite file whatever the suite's database: the catalogue is what is under test, and a fresh
    // PostgreSQL schema would first have to be created for the child process
    const api = await startServerProcess({ DATABASE_PATH: join(dir, 'db.sqlite'), AAGUID_CATALOGUE: file });
    try {
      const { client } = await userWithPasskey(api.url, new SoftAuthenticator(undefined, UNKNOWN));
      const start = await client.request('POST', '/v2/me/passkeys/append/start', { clientInformation: { isUserVerifyingPlatformAuthenticatorAvailable: true } });
      const attestationResponse = new SoftAuthenticator(undefined, ONE_PASSWORD).create(start.body.attestationOptions);
      expect((await client.request('POST', '/v2/me/passkeys/append/finish', { attestationResponse, clientInformation: {} })).status).toBe(200);
      const details = Object.fromEntries((await client.request('GET', '/v2/me/passkeys')).body.passkeys.map((p: any) => [p.authenticatorAAGUID, p.aaguidDetails]));
      expect(details).toEqual({
        [UNKNOWN]: { name: 'Team Vault', iconLight: LIGHT, iconDark: PNG },
        // known to the shipped catalogue, not to this one
        [ONE_PASSWORD]: { name: 'Passkey', iconLight: DEFAULT_ICONS.light, iconDark: DEFAULT_ICONS.dark },
      });
    } finally {
      await api.stop();
    }
    // an entry with one icon shows it in both modes
    expect(AaguidCatalogue.load(file).details('11111111-2222-3333-4444-555555555555')).toEqual({ name: 'Only Light', iconLight: LIGHT, iconDark: LIGHT });
  });

  it('refuses to start with a catalogue that is not JSON, naming the setting, the file and the fault', PROCESS_TEST, async () => {
    const file = join(dir, 'truncated.json');
    writeFileSync(file, readFileSync(DEFAULT_CATALOGUE, 'utf8').slice(0, 500));
    const started = startServerProcess({ DATABASE_PATH: join(dir, 'db-bad.sqlite'), AAGUID_CATALOGUE: file });
    await expect(started).rejects.toThrow(/the API exited \(1\)/);
    await expect(started).rejects.toThrow(`The AAGUID catalogue ${file} (AAGUID_CATALOGUE) cannot be used: it is not JSON`);
  });

  it('names what is wrong with a catalogue that is JSON but not a catalogue', () => {
    const cases: [content: unknown, fault: string][] = [
      [[{ name: 'x' }], 'it must be a JSON object keyed by AAGUID'],
      [{ 'not-an-aaguid': { name: 'x' } }, '"not-an-aaguid" is not an AAGUID'],
      [{ [UNKNOWN]: 'Team Vault' }, `the entry of ${UNKNOWN} must be an object`],
      [{ [UNKNOWN]: { name: '  ', icon_light: LIGHT } }, `the entry of ${UNKNOWN} has no name`],
      [{ [UNKNOWN]: { name: 'Team Vault', icon_dark: 'https://icons.example/vault.svg' } }, `icon_dark of ${UNKNOWN} must be an image as a data: URL`],
      [{ [UNKNOWN]: { name: 'Team Vault', icon_light: 'data:text/html;base64,PGI+' } }, `icon_light of ${UNKNOWN} must be an image as a data: URL`],
    ];
    for (const [index, [content, fault]] of cases.entries()) {
      const file = join(dir, `bad-${index}.json`);
      writeFileSync(file, JSON.stringify(content));
      expect(() => AaguidCatalogue.load(file)).toThrow(`The AAGUID catalogue ${file} (AAGUID_CATALOGUE) cannot be used: ${fault}`);
    }
    expect(() => AaguidCatalogue.load(join(dir, 'missing.json'))).toThrow(/cannot be used: it cannot be read \(ENOENT\)/);
  });
});
