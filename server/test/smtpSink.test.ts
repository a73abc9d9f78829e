// The test SMTP server keeps messages exactly as sent, however TCP cuts them into chunks (a loaded
// machine cut a line in two, and the sink had added a line break inside the HTML part).
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { startSmtpSink, waitForMessages } from './helpers/smtpSink.ts';

const sink = await startSmtpSink();
afterAll(() => sink.close());

it('reassembles lines, CRLFs and UTF-8 characters that straddle chunks', async () => {
  const socket = connect(sink.port, '127.0.0.1');
  await once(socket, 'connect');
  const message = 'EHLO x\r\nMAIL FROM:<a@b>\r\nRCPT TO:<c@d>\r\nDATA\r\nSubject: grüße\r\n\r\n<p>one line</p>\r\n..dot\r\n.\r\nQUIT\r\n';
  // one byte per write, each after the last was flushed: every boundary falls inside something
  for (const byte of Buffer.from(message, 'utf8')) {
    socket.write(Buffer.of(byte));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await waitForMessages(sink, 1);
  expect(sink.received[0]).toBe('Subject: grüße\n\n<p>one line</p>\n.dot\n');
  socket.destroy();
});
