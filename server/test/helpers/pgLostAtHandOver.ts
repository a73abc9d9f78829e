// Run as a process of its own (server/test/faults/pgLostAtHandOver.test.ts): a PostgresDatabase with one
// connection, against a stand-in PostgreSQL that speaks just enough of the wire protocol, and that ends
// the connection the way a server shutting down does (FATAL 57P01, "terminating connection due to
// administrator command") in the same packet as its answer to a plain statement, while a transaction
// waits for that connection. pg-pool hands the connection to the waiting transaction as it handles the
// answer; the FATAL message that follows in the same packet then finds the connection with no 'error'
// listener of the pool's, nor yet of the transaction's, unless the transaction takes it with one
// (PostgresDatabase.transaction). An 'error' event nobody listens to ends the process: that is what
// the test looks for. Prints one JSON line with what each call ended with, then exits 0.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { PostgresDatabase } from '../../store/PostgresDatabase.ts';

/** One backend message: its type byte, its length (itself included) and its body. */
function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');
const int32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeInt32BE(value);
  return buffer;
};
const readyForQuery = () => message('Z', Buffer.from('I'));
const fatal = () => message('E', Buffer.concat([cstring('SFATAL'), cstring('VFATAL'), cstring('C57P01'), cstring('Mterminating connection due to administrator command'), Buffer.from([0])]));

/**
 * Answers every statement as one that returned no rows. Once `armed`, the next Sync's answer goes out
 * with the FATAL message after it, in one write, and the connection is closed.
 */
function standIn(): { port: Promise<number>; arm(): void; close(): void } {
  let armed = false;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    let started = false;
    let out: Buffer[] = [];
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          // the startup message: a length and no type byte; then authentication ok, ready
          if (buffer.length < 4 || buffer.length < buffer.readInt32BE(0)) return;
          buffer = buffer.subarray(buffer.readInt32BE(0));
          started = true;
          socket.write(Buffer.concat([message('R', int32(0)), readyForQuery()]));
          continue;
        }
        if (buffer.length < 5 || buffer.length < 1 + buffer.readInt32BE(1)) return;
        const type = String.fromCharCode(buffer[0]!);
        const body = buffer.subarray(5, 1 + buffer.readInt32BE(1));
        buffer = buffer.subarray(1 + buffer.readInt32BE(1));
        if (type === 'P') out.push(message('1'));
        else if (type === 'B') out.push(message('2'));
        else if (type === 'D') out.push(...(body[0] === 'S'.charCodeAt(0) ? [message('t', Buffer.from([0, 0]))] : []), message('n'));
        else if (type === 'E') out.push(message('C', cstring('SELECT 0')));
        else if (type === 'C') out.push(message('3'));
        else if (type === 'Q') socket.write(Buffer.concat([message('C', cstring('SELECT 0')), readyForQuery()]));
        else if (type === 'X') socket.end();
        else if (type === 'S') {
          out.push(readyForQuery());
          if (armed) {
            armed = false;
            out.push(fatal());
            socket.end(Buffer.concat(out));
          } else {
            socket.write(Buffer.concat(out));
          }
          out = [];
        }
      }
    });
  });
  return {
    port: new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))),
    arm: () => {
      armed = true;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

const postgres = standIn();
const db = await PostgresDatabase.open(`postgres://test@127.0.0.1:${await postgres.port}/test`, [], {
  poolSize: 1,
  timeouts: { connectMs: 2_000, poolCheckoutMs: 5_000, statementMs: 5_000 },
});
postgres.arm();
const outcome = (promise: Promise<unknown>) => promise.then(
  () => 'answered',
  (error: Error) => `${error.name}: ${error.message}`,
);
// the plain statement takes the one connection; the transaction waits for it
const [plain, transaction] = await Promise.all([outcome(db.get('SELECT 1')), outcome(db.transaction(() => db.get('SELECT 2')))]);
// the pool opens a new connection for the next call
const after = await outcome(db.get('SELECT 3'));
await db.close();
postgres.close();
process.stdout.write(`${JSON.stringify({ plain, transaction, after })}\n`);
