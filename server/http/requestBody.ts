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
 * What is read and dropped of a body still arriving when the answer is out (a refused one after its
 * 413, or one a route answered without reading): enough for what a client had in flight on a fast
 * link when the answer went out, so that its writes do not stall before it has seen the answer;
 * little enough that the garbage it makes stays a few MB. Beyond it nothing more is read (the client's
 * writes stall), and the connection is closed when the time is up, that of a client busy elsewhere
 * before it reads the answer (nginx waits 5 s between reads in its lingering close). Closed right at
 * the byte bound, a socket still holding unread body sends a reset, which discards an answer that the
 * client has received but not read yet: a test client on a loaded machine, with megabytes in flight over
 * loopback, lost its 413 that way. (@hono/node-server's own clean-up of unread bodies, 500 ms, is off:
 * app.ts `listen`.)
 */
export const DROP_AFTER_ANSWER_BYTES = 4 * 1024 * 1024;
const DROP_AFTER_ANSWER_MS = 5000;

/**
 * The 413; the rest of the body is dropped once the answer is out (dropUnreadBody). Closing at once
 * would lose the answer to a client still sending (a reset discards what it has not read yet); reading
 * on without a bound would let a client that ignores the answer make the server read all it sends.
 */
function tooLarge(): ApiError {
  return new ApiError(413, 'request_too_large', 'Payload too large', `The request body is larger than ${MAX_BODY_BYTES} bytes`);
}

function notJson(): ApiError {
  return new ApiError(415, 'unsupported_media_type', 'Unsupported media type', 'The request body must be JSON (Content-Type: application/json)');
}

function nodeStreams(c: Context<AppEnv>): { incoming: IncomingMessage; outgoing: ServerResponse } | undefined {
  const env = c.env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  return env?.incoming && env.outgoing && typeof env.incoming.on === 'function' ? { incoming: env.incoming, outgoing: env.outgoing } : undefined;
}

/**
 * Every request (app.ts `listen`): once its answer is out, a body still arriving is read and dropped up
 * to DROP_AFTER_ANSWER_BYTES, then no more is read, and the connection is closed DROP_AFTER_ANSWER_MS
 * after the answer unless the body ended first (a connection kept alive then serves the next request).
 */
export function dropUnreadBody(incoming: IncomingMessage, outgoing: ServerResponse): void {
  outgoing.once('finish', () => {
    // received whole: Node reads what is left of it, and the connection serves the next request
    if (incoming.complete || incoming.readableEnded || incoming.destroyed) return;
    let dropped = 0;
    const socket = incoming.socket;
    const stop = () => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', stop);
      // a kept-alive socket serves more requests: it keeps no listener of this one
      socket?.off('close', stop);
    };
    const close = () => {
      stop();
      socket?.destroy();
    };
    const onData = (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped <= DROP_AFTER_ANSWER_BYTES) return;
      // enough dropped: nothing more is read until the time is up, which leaves the answer to be read
      incoming.off('data', onData);
      incoming.pause();
    };
    const timer = setTimeout(close, DROP_AFTER_ANSWER_MS);
    timer.unref();
    incoming.on('data', onData);
    incoming.once('end', stop);
    socket?.once('close', stop);
    incoming.resume();
  });
}

/** 413 for a declared Content-Length over the cap, on every route, before anything reads the body. */
export function declaredLengthLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
    await next();
  };
}

/**
 * The body as text, at most MAX_BODY_BYTES of it. Served by Node, it is read from the socket's request
 * stream itself: the web stream @hono/node-server puts around it would keep queueing what the client
 * sends after the cut while the rest is dropped (see dropUnreadBody).
 */
export async function readBodyText(c: Context<AppEnv>): Promise<string> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  const node = nodeStreams(c);
  const bytes = node ? await readIncoming(node.incoming) : await readWebStream(c.req.raw.body);
  return bytes.toString('utf8');
}

function readIncoming(incoming: IncomingMessage): Promise<Buffer> {
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
        // not destroyed: that would close the socket before the 413 is written (see dropUnreadBody)
        incoming.pause();
        chunks.length = 0;
        reject(tooLarge());
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
async function readWebStream(body: ReadableStream<Uint8Array> | null): Promise<Buffer> {
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
      throw tooLarge();
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
