import { existsSync } from 'node:fs';
import { hasChromium, INSTALL_HINT } from './chromium';

export default function globalSetup(): void {
  if (!hasChromium()) throw new Error(INSTALL_HINT);
  if (!existsSync(new URL('../dist/corbado.js', import.meta.url))) {
    throw new Error('dist/corbado.js is missing: run "npm run build" first (npm test does).');
  }
}
