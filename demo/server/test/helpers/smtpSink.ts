// A minimal SMTP server for tests: enough of RFC 5321 for nodemailer to hand over messages, which it
// keeps as raw text. It can be told to refuse service (an outage: 421 at the greeting) or to hang (a
// server that accepts the connection and never answers).
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { expect, vi } from 'vitest';

export interface SmtpSink {
  port: number;
  received: string[];
  /** answer every new connection 421 and close it */
  refuse: boolean;
  /** accept new connections and never say a word */
  hang: boolean;
  /** connections so far, refused and hung ones included */
  connections: number;
  close(): void;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: string[] = [];
  const sockets = new Set<Socket>();
  const smtp: Server = createServer((socket) => {
    sink.connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (sink.hang) return;
    if (sink.refuse) {
      socket.end('421 test service not available\r\n');
      return;
    }
    let inData = false;
    let data = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      for (const line of chunk.toString().split('\r\n')) {
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(data);
            data = '';
            socket.write('250 queued\r\n');
          } else data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (!line) continue;
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp, 'listening');
  const sink: SmtpSink = {
    port: (smtp.address() as { port: number }).port,
    received,
    refuse: false,
    hang: false,
    connections: 0,
    close: () => {
      for (const socket of sockets) socket.destroy();
      smtp.close();
    },
  };
  return sink;
}

/** Waits until `count` messages have arrived (deliveries start after the request's transaction). */
export async function waitForMessages(sink: SmtpSink, count: number): Promise<string[]> {
  await vi.waitFor(() => expect(sink.received.length).toBeGreaterThanOrEqual(count), { timeout: 4_000 });
  return sink.received;
}
