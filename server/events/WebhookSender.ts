// One attempt to deliver one event to one endpoint: a POST of the JSON body, signed per the Standard
// Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256
// of "id.timestamp.body">`) with the `standardwebhooks` package, the specification's own library. Any
// 2xx answer counts as delivered; anything else (a redirect too: redirects are never followed, so an
// endpoint cannot send the server elsewhere) fails the attempt, as does no answer within the timeout.
// The host name is resolved here, and the address connected to is the one checked (webhookTargets.ts),
// so a name cannot pass the check and then point elsewhere (DNS rebinding).
import type { LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { Undeliverable } from '../senders/DeliveryWorker.ts';
import { addressProblem, hostOf, systemResolver, webhookUrlProblem, type Resolver, type TargetRules } from './webhookTargets.ts';

export const USER_AGENT = 'corbado-widget-server-webhooks/1';

export interface SignedRequest {
  url: string;
  /** the endpoint's `whsec_…` secret */
  secret: string;
  /** the webhook-id: the same on every attempt */
  id: string;
  body: string;
  /** the attempt's time (ms): webhook-timestamp */
  now: number;
}

/** The Standard Webhooks headers of one attempt. */
export function signedHeaders(request: Omit<SignedRequest, 'url'>): Record<string, string> {
  const timestamp = new Date(request.now);
  return {
    'content-type': 'application/json',
    'webhook-id': request.id,
    'webhook-timestamp': String(Math.floor(request.now / 1000)),
    'webhook-signature': new Webhook(request.secret).sign(request.id, timestamp, request.body),
  };
}

/**
 * The socket's lookup: resolves the name once and hands the connection exactly the addresses it checked,
 * refusing (as Undeliverable) when any of them is refused by the rules.
 */
function checkedLookup(protocol: string, rules: TargetRules, resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const { all, ...rest } = options;
    void resolve(hostname, rest).then(
      (addresses) => {
        const problem = addresses.map((a) => addressProblem(a.address, protocol, rules)).find((p) => p !== undefined);
        if (problem) return callback(new Undeliverable(problem), '', 0);
        const [first] = addresses;
        if (!first) return callback(new Undeliverable(`${hostname} resolved to no address`), '', 0);
        if (all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
        return callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

export class WebhookSender {
  constructor(
    private readonly rules: TargetRules,
    /** bound on one attempt, from connecting to the answer's status */
    private readonly timeoutMs: number,
    /** how host names are resolved (the system's resolver; tests hand in their own) */
    private readonly resolve: Resolver = systemResolver,
  ) {}

  /** Resolves when the endpoint answered 2xx; rejects otherwise (Undeliverable when it can never succeed). */
  send(request: SignedRequest): Promise<void> {
    const problem = webhookUrlProblem(request.url, this.rules);
    if (problem) return Promise.reject(new Undeliverable(problem));
    const url = new URL(request.url);
    const host = hostOf(url);
    // a literal address is connected to without a lookup: checked here instead
    const literal = isIP(host) ? addressProblem(host, url.protocol, this.rules) : undefined;
    if (literal) return Promise.reject(new Undeliverable(literal));
    const body = Buffer.from(request.body, 'utf8');
    const headers = { ...signedHeaders(request), 'content-length': String(body.length), 'user-agent': USER_AGENT };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<void>((resolve, reject) => {
      const outgoing = send(url, { method: 'POST', headers, agent: false, lookup: checkedLookup(url.protocol, this.rules, this.resolve) }, (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        // the answer's body is not read: only its status counts
        response.destroy();
        clearTimeout(timer);
        if (status >= 200 && status < 300) resolve();
        else reject(new Error(status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`));
      });
      const timer = setTimeout(() => outgoing.destroy(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      outgoing.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      outgoing.end(body);
    });
  }
}
