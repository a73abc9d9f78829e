/* eslint-disable @typescript-eslint/no-explicit-any -- wire JSON in tests is checked by the assertions themselves */
// A browser that asks for an e-mail link (log-in or sign-up on a project that verifies by link), and
// the link it made: the process it names and its token, as the person's mailbox has them.
import { expect } from 'vitest';
import { Client, latestLink, type ApiResponse } from './testServer.ts';

export interface AskedLink {
  /** the browser that asked */
  asker: Client;
  /** its process/init answer (with the browser cookie) */
  init: ApiResponse;
  /** what the asking tab shows while it waits */
  waiting: any;
  /** the link's process (its id) and token */
  process: string;
  token: string;
}

/** A log-in or sign-up that waits for an e-mail link to `email`, asked for by a browser of its own. */
export async function askForLink(
  baseUrl: string,
  project: string,
  authType: 'login' | 'signup',
  email: string,
  client: Record<string, boolean> = {},
): Promise<AskedLink> {
  const asker = new Client(baseUrl, project);
  const init = await asker.init(client, `${authType}-init`);
  const waiting =
    authType === 'login'
      ? await asker.step('/v2/auth/login/init', { identifierValue: email, isPhone: false })
      : await asker.step('/v2/auth/signup/init', { identifiers: [{ type: 'email', identifier: email }] });
  expect(waiting.block).toBe('email-verify');
  const link = await latestLink(baseUrl, email);
  const payload = JSON.parse(Buffer.from(link.searchParams.get('corbadoEmailLinkID')!, 'base64').toString());
  return { asker, init, waiting, process: payload.process.id, token: link.searchParams.get('corbadoToken')! };
}
