import { existsSync } from 'node:fs';

/** Debian's Chromium, or the one CHROMIUM_PATH names. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

export function hasChromium(): boolean {
  return existsSync(chromiumPath());
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export const INSTALL_HINT =
  'No Chromium found at ' +
  chromiumPath() +
  '. Install Debian\'s: "sudo apt-get install -y chromium" (or set CHROMIUM_PATH to a Chromium binary). ' +
  'Never run "npx playwright install" here: the tests use the system browser.';
