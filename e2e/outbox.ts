// The dev outbox for the cross-engine suite (e2e/engines), in its own call shapes: the reading itself is
// the QA kit's (e2e/kit/corbadoKit.ts), one implementation for every suite.
import { latestMessage as kitLatestMessage, outboxMessages, type OutboxMessage } from './kit/corbadoKit';

export type { OutboxMessage };

/** The messages the dev outbox of an API holds for an address, newest first. */
export function messagesTo(to: string, api: string): Promise<OutboxMessage[]> {
  return outboxMessages(to, { apiUrl: api });
}

/** The newest message the dev outbox of an API holds for an address (other than `after`), waiting for it. */
export function latestMessage(to: string, after: string | undefined, api: string): Promise<OutboxMessage> {
  return kitLatestMessage(to, { after, apiUrl: api });
}

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}
