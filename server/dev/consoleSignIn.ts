// Development only: `npm start` makes a development owner of the console and prints a one-time link
// that signs this machine's browser in as that owner in one step (GET /_dev/sign-in?token=… on the
// console's listener). A link works once, for ten minutes, and only in the process that printed it (the
// tokens live in its memory). Production never loads this file (devRoom.test.ts).
import type { Hono } from 'hono';
import { CONSOLE_PROJECT_ID, Operators } from '../console/operators.ts';
import type { ConsoleEnv, OpenConsoleSession } from '../console/consoleApp.ts';
import type { EventRecorder } from '../events/WebhookEvents.ts';
import { newSecretToken } from '../randomValues.ts';
import type { Store } from '../store/Store.ts';

export const DEV_OWNER_EMAIL = 'owner@console.localhost';
const LINK_LIFETIME_MS = 10 * 60_000;

export class DevConsoleLinks {
  private readonly tokens = new Map<string, { email: string; expiresAt: number }>();

  constructor(private readonly deps: { store: Store; events: EventRecorder; now: () => number }) {}

  /** The development owner (made if missing), and a one-time sign-in link on the console at `consoleUrl`. */
  async ownerLink(consoleUrl: string, email = DEV_OWNER_EMAIL): Promise<string> {
    if (!(await this.deps.store.operators.byEmail(email))) {
      await new Operators({ ...this.deps, consoleOrigin: consoleUrl }).add({ email, role: 'owner', projects: [] });
    }
    const token = newSecretToken();
    this.tokens.set(token, { email, expiresAt: this.deps.now() + LINK_LIFETIME_MS });
    return `${consoleUrl}/_dev/sign-in?token=${token}`;
  }

  /** The address a token signs in, once; undefined for an unknown, used or expired one. */
  take(token: string): string | undefined {
    const found = this.tokens.get(token);
    this.tokens.delete(token);
    return found && found.expiresAt > this.deps.now() ? found.email : undefined;
  }

  /** GET /_dev/sign-in?token=…: a console session for the link's operator, then the console. */
  register(app: Hono<ConsoleEnv>, openSession: OpenConsoleSession): void {
    app.get('/_dev/sign-in', async (c) => {
      const email = this.take(c.req.query('token') ?? '');
      const operator = email === undefined ? undefined : await this.deps.store.operators.byEmail(email);
      if (!operator) return c.text(`This sign-in link is used, expired or unknown: restart \`npm start\` for a new one (or sign in with the widget, project ${CONSOLE_PROJECT_ID}).\n`, 404);
      await openSession(c, operator, this.deps.now());
      return c.redirect('/', 303);
    });
  }
}
