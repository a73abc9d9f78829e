// Reading request bodies with a bound: a declared Content-Length over the cap is refused before a byte
// is read, and a body without one (chunked) is read only up to the cap. Either way the answer is 413
// with the error envelope, and memory holds at most the cap per request whatever the client sends.
// JSON routes take JSON only (415 otherwise): a form or text/plain body is what a cross-site page can
// send without a CORS preflight. process/init alone also reads JSON sent as text/plain, after its
// Origin was checked (RequestResolver.project with `simple`).
import type { Context, MiddlewareHandler } from 'hono';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../ApiError.ts';
import type { AppEnv } from './AppEnv.ts';

/** The largest body any route takes; a passkey's attestation, the largest legitimate one, is a few KB. */
export const MAX_BODY_BYTES = 200_000;

const JSON_MEDIA_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/**
 * What is read and dropped of a refused body after the 413, before the connection is closed: enough
 * for what a client had in flight on a fast link when the answer went out, so that it reads the 413
 * rather than a reset; little enough that the garbage it makes stays a few MB. The time is that of a
 * client busy elsewhere before it reads the answer (nginx waits 5 s between reads in its lingering
 * close): with 1 s, a test client on a loaded machine was reset before it had read its 413.
 */
const DROP_AFTER_ANSWER_BYTES = 8 * 1024 * 1024;
const DROP_AFTER_ANSWER_MS = 5000;

/**
 * The 413; the rest of the body is read and dropped for a short while once the answer is out, then
 * the connection is closed. Closing at once would lose the answer to a client still sending (a reset
 * discards what it has not read yet); reading on without a bound would let a client that ignores the
 * answer make the server read (and allocate for) all it sends.
 */
function tooLarge(c: Context<AppEnv>): ApiError {
  closeAfterAnswer(c);
  return new ApiError(413, 'request_too_large', 'Payload too large', `The request body is larger than ${MAX_BODY_BYTES} bytes`);
}

function notJson(): ApiError {
  return new ApiError(415, 'unsupported_media_type', 'Unsupported media type', 'The request body must be JSON (Content-Type: application/json)');
}

function nodeStreams(c: Context<AppEnv>): { incoming: IncomingMessage; outgoing: ServerResponse } | undefined {
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  return env?.incoming && env.outgoing && typeof env.incoming.on === 'function' ? { incoming: env.incoming, outgoing: env.outgoing } : undefined;
}

function closeAfterAnswer(c: Context<AppEnv>): void {
  const node = nodeStreams(c);
  if (!node) return;
  const { incoming, outgoing } = node;
  outgoing.once('finish', () => {
    if (incoming.readableEnded || incoming.destroyed) return;
    let dropped = 0;
    const stop = () => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', stop);
    };
    const close = () => {
      stop();
      incoming.socket?.destroy();
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > DROP_AFTER_ANSWER_BYTES) close();
    };
    const timer = setTimeout(close, DROP_AFTER_ANSWER_MS);
    timer.unref();
    incoming.on('data', onData);
    incoming.once('end', stop);
    incoming.resume();
  });
}

/** 413 for a declared Content-Length over the cap, on every route, before anything reads the body. */
export function declaredLengthLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) throw tooLarge(c);
    await next();
  };
}

/**
 * The body as text, at most MAX_BODY_BYTES of it. Served by Node, it is read from the socket's request
 * stream itself: the web stream @hono/node-server puts around it would keep queueing what the client
 * sends after the cut while the rest is dropped (see tooLarge).
 */
export async function readBodyText(c: Context<AppEnv>): Promise<string> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) throw tooLarge(c);
  const node = nodeStreams(c);
  const bytes = node ? await readIncoming(c, node.incoming) : await readWebStream(c, c.req.raw.body);
  return bytes.toString('utf8');
}

function readIncoming(c: Context<AppEnv>, incoming: IncomingMessage): Promise<Buffer> {
  if (incoming.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        stop();
        // not destroyed: that would close the socket before the 413 is written (see tooLarge)
        incoming.pause();
        chunks.length = 0;
        reject(tooLarge(c));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // the client went away before the end of its body: nobody is left to answer
    const onClose = () => {
      stop();
      reject(ApiError.invalidRequest('The request body ended before its end'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
    incoming.resume();
  });
}

/** The same bound on a fetch Request's stream (the app called without a socket, as tests do). */
async function readWebStream(c: Context<AppEnv>, body: ReadableStream<Uint8Array> | null): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge(c);
    }
    chunks.push(value);
  }
}

const TEXT_MEDIA_TYPE = /^text\/plain\s*(?:;|$)/i;

/**
 * The JSON body; an empty body counts as {} (body-less POSTs, which clients send without a
 * Content-Type). A body in any other media type, or a non-empty one with none, is 415. `textPlain`:
 * JSON sent as text/plain is read too (a call that may come as a CORS simple request, whose caller
 * checked the request's Origin first: RequestResolver.project with `simple`).
 */
export async function readJson(c: Context<AppEnv>, { textPlain = false } = {}): Promise<unknown> {
  const type = c.req.header('content-type')?.trim() || undefined;
  if (type !== undefined && !JSON_MEDIA_TYPE.test(type) && !(textPlain && TEXT_MEDIA_TYPE.test(type))) throw notJson();
  const text = await readBodyText(c);
  if (!text.trim()) return {};
  if (type === undefined) throw notJson();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw ApiError.invalidRequest('The request body is not valid JSON');
  }
}

/** An application/x-www-form-urlencoded body as name -> value (the last of a repeated name). */
export async function readForm(c: Context<AppEnv>): Promise<Record<string, string>> {
  return Object.fromEntries(new URLSearchParams(await readBodyText(c)));
}
