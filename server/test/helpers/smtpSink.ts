// A minimal SMTP server for tests: enough of RFC 5321 for nodemailer to hand over messages, which it
// keeps as raw text. It can be told to refuse service (an outage: 421 at the greeting) or to hang (a
// server that accepts the connection and never answers).
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
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
    // TCP hands over chunks, not lines: a line, its CRLF or a UTF-8 character may straddle two chunks,
    // so the unfinished tail waits for the next one
    let pending = '';
    const utf8 = new StringDecoder('utf8');
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      const lines = (pending + utf8.write(chunk)).split('\r\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(data);
            data = '';
            socket.write('250 queued\r\n');
          } else data += `${line.startsWith('..') ? line.slice(1) : line}\n`; // the client doubles a leading dot
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

export interface MimePart {
  contentType: string;
  /** the body, its transfer encoding (quoted-printable, base64) undone */
  body: string;
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  const bytes: number[] = [];
  const soft = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function splitHead(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\n\n');
  const headers = new Map<string, string>();
  for (const line of raw.slice(0, end).replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: raw.slice(end + 2) };
}

/** A received message's top content type and its leaf parts (one level of multipart is enough here). */
export function mimeParts(raw: string): { contentType: string; parts: MimePart[] } {
  const { headers, body } = splitHead(raw);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  const leaf = (h: Map<string, string>, b: string): MimePart => ({
    contentType: (h.get('content-type') ?? 'text/plain').split(';')[0]!.trim(),
    body: decodeBody(b, (h.get('content-transfer-encoding') ?? '7bit').toLowerCase()),
  });
  if (!boundary) return { contentType, parts: [leaf(headers, body)] };
  const parts = body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .map((chunk) => {
      const part = splitHead(chunk.replace(/^\n/, ''));
      return leaf(part.headers, part.body.replace(/\n$/, ''));
    });
  return { contentType, parts };
}
