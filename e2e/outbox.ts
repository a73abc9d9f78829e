// The dev outbox of a Frontend API over plain HTTP, free of any test runner: the Playwright fixtures and
// the cross-engine suite (e2e/engines) both read the codes they type from here.

import type { OutboxWireMessage } from '../demo/server/http/devRoutes.ts';

export type OutboxMessage = OutboxWireMessage;

/** The messages the dev outbox of an API holds for an address, newest first. */
export async function messagesTo(to: string, api: string): Promise<OutboxMessage[]> {
  const response = await fetch(`${api}/_dev/messages?to=${encodeURIComponent(to)}`, { signal: AbortSignal.timeout(5_000) });
  return (await response.json()) as OutboxMessage[];
}

/** The newest message the dev outbox of an API holds for an address (other than `after`), waiting up to 10 s for it. */
export async function latestMessage(to: string, after: string | undefined, api: string): Promise<OutboxMessage> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const newest = (await messagesTo(to, api))[0];
    if (newest && newest.id !== after) return newest;
    if (Date.now() > deadline) throw new Error(`No new message for ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}
