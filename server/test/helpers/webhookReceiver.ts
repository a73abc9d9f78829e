/* eslint-disable @typescript-eslint/no-explicit-any -- the events are checked by the assertions themselves */
// A webhook receiver on loopback, as a host backend would write one: it reads the raw body and checks
// the Standard Webhooks signature with the `standardwebhooks` package, using the secret of the endpoint
// the request came to (the path names it). It can answer 2xx, answer an error, redirect, or hang.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  /** the path the request came to */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** the parsed body, when the signature verified with the path's secret */
  event?: any;
  /** why standardwebhooks refused it */
  refused?: string;
}

export type ReceiverMode = 'ok' | 'hang' | { status: number; location?: string };

export interface WebhookReceiver {
  url: string;
  port: number;
  mode: ReceiverMode;
  /** the secret per path (`/pro-1`), as `webhooks add` printed it */
  secrets: Map<string, string>;
  received: ReceivedWebhook[];
  /** requests read but not answered (mode 'hang') */
  hanging: number;
  /** every verified event, in arrival order */
  events(): any[];
  close(): Promise<void>;
}

/** Starts a receiver; `port` reopens one on the port a closed receiver had. */
export async function startWebhookReceiver(options: { port?: number; mode?: ReceiverMode } = {}): Promise<WebhookReceiver> {
  const sockets = new Set<Socket>();
  const held: ServerResponse[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    mode: options.mode ?? 'ok',
    secrets: new Map(),
    received: [],
    hanging: 0,
    events: () => receiver.received.filter((r) => r.event !== undefined).map((r) => r.event),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = new URL(request.url ?? '/', 'http://receiver').pathname;
      const entry: ReceivedWebhook = { path, headers: request.headers, body };
      const secret = receiver.secrets.get(path);
      try {
        if (!secret) throw new Error(`no secret for ${path}`);
        entry.event = new Webhook(secret).verify(body, request.headers as Record<string, string>);
      } catch (error) {
        entry.refused = error instanceof Error ? error.message : String(error);
      }
      receiver.received.push(entry);
      const mode = receiver.mode;
      if (mode === 'hang') {
        receiver.hanging += 1;
        held.push(response);
        response.on('close', () => (receiver.hanging -= 1));
        return;
      }
      if (mode === 'ok') response.writeHead(entry.event !== undefined ? 204 : 400).end();
      else response.writeHead(mode.status, mode.location ? { location: mode.location } : {}).end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}
