// The development-only room: everything a server in development serves besides its APIs, kept apart
// from what a production server runs. app.ts loads this module (by a dynamic import) only when not in
// production, and nothing else outside server/dev/ imports from here (test/devRoom.test.ts scans every
// import), so a production server never loads a line of it. In the room:
// - outboxRoutes.ts: /_dev/ (the outbox page: codes and links that would have been sent), /_dev/messages
//   (its JSON) and POST /_dev/projects (projects made by tests);
// - simulator.ts and simulatorPages.ts: the stand-ins for Google, Microsoft and GitHub under /_dev/oauth/;
// - consoleSignIn.ts: the development owner of the console and its one-time sign-in link (`npm start`).
import type { Hono } from 'hono';
import type { AppEnv } from '../http/AppEnv.ts';
import type { Store } from '../store/Store.ts';
export { DevConsoleLinks } from './consoleSignIn.ts';
import { registerDevRoutes } from './outboxRoutes.ts';
import { registerOAuthSimulator } from './simulator.ts';

export interface DevelopmentRoomOptions {
  store: Store;
  /** the demo pages' origin, the allowed origin of the projects POST /_dev/projects makes */
  demoOrigin: string;
  now: () => number;
  /** serve the provider stand-ins (default true) */
  oauthSimulator?: boolean;
  /** the client secret the stand-ins expect (default SIMULATOR_CLIENT_SECRET) */
  simulatorClientSecret?: string;
  /** client ids the stand-ins know with a secret of their own (tests of per-project clients) */
  simulatorClients?: Record<string, string>;
  /** PUBLIC_URL: where the stand-ins say they are */
  publicUrl?: string;
}

/** Mounts the outbox pages, /_dev/projects and (unless turned off) the provider stand-ins. */
export function mountDevelopmentRoom(app: Hono<AppEnv>, options: DevelopmentRoomOptions): void {
  registerDevRoutes(app, options.store, options.demoOrigin, options.now);
  if (options.oauthSimulator === false) return;
  registerOAuthSimulator(app, {
    now: options.now,
    ...(options.simulatorClientSecret ? { clientSecret: options.simulatorClientSecret } : {}),
    ...(options.simulatorClients ? { clients: options.simulatorClients } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
  });
}
