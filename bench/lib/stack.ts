// The system under test for the browser runs: the Frontend API (in this process), the delaying proxy
// in front of it, and the demo server that serves the pages and dist/corbado.js.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startApi } from '../../server/app.ts';
import { startDemo } from '../../demo/demoServer.ts';
import { startDelayProxy, type DelayProxy } from './proxy.ts';

export interface Stack {
  /** http://localhost:<port> of the demo pages (the page origin the API allows) */
  demoUrl: string;
  /** the address the widget talks to: the proxy */
  apiUrl: string;
  /** the API itself, bypassing the proxy (set-up calls) */
  directApiUrl: string;
  proxy: DelayProxy;
  close(): Promise<void>;
}

export async function startStack(): Promise<Stack> {
  const databasePath = join(fileURLToPath(new URL('../tmp/', import.meta.url)), `browser-${process.pid}-${Date.now()}.sqlite`);
  const proxy = await startDelayProxy();
  const demo = await startDemo({ port: 0, apiUrl: proxy.url });
  const api = await startApi({
    port: 0,
    database: databasePath,
    publicUrl: proxy.url,
    demoOrigin: demo.url,
    logger: { info: () => undefined, error: (message, error) => console.error(message, error) },
  });
  proxy.upstream = api.url;
  return {
    demoUrl: demo.url,
    apiUrl: proxy.url,
    directApiUrl: api.url,
    proxy,
    async close() {
      await Promise.allSettled([proxy.close(), demo.close()]);
      await api.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(databasePath + suffix, { force: true });
    },
  };
}
