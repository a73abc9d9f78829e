// Where a webhook may go (SECURITY.md, "Webhooks"). Production sends only over https, and only to
// public addresses: an endpoint is registered by the operator, but its host name is resolved at every
// attempt, and a name that points at the server's own machine or network (loopback, private, link-local
// such as a cloud's metadata service at 169.254.169.254, unique-local, CGNAT) would turn the server into
// a way in there (server-side request forgery). WEBHOOK_ALLOW_PRIVATE_NETWORKS=on lets production reach
// receivers on the private network. Development also allows plain http, to the local machine only.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Resolves a host name to all its addresses: the system's resolver (dns.lookup), or a test's own. */
export type Resolver = (hostname: string, options: Omit<LookupOptions, 'all'>) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (hostname, options) => lookup(hostname, { ...options, all: true });

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64: could reach any IPv4 address behind it
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`, `::ffff:a00:1`) as IPv4; anything else as it is. */
function unmapped(address: string): string {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return address;
  if (match[1]) return match[1];
  const high = parseInt(match[2]!, 16);
  const low = parseInt(match[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function inList(list: BlockList, address: string): boolean {
  const plain = unmapped(address);
  const family = isIP(plain);
  return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether an IP address belongs to the local machine or a private network (not a public internet address). */
export function isNonPublicAddress(address: string): boolean {
  return inList(NOT_PUBLIC, address);
}

export function isLoopbackAddress(address: string): boolean {
  return inList(LOOPBACK, address);
}

/** A URL's host as an address or name: without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

export interface TargetRules {
  production: boolean;
  /** production: receivers on loopback and private networks are allowed */
  allowPrivateNetworks: boolean;
}

/**
 * Why a webhook URL cannot be used under these rules, or undefined when it can. A literal address is
 * checked here; a host name when it is resolved (resolvedProblem, and at every attempt).
 */
export function webhookUrlProblem(value: string, rules: TargetRules): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `a webhook URL must be an absolute https URL, got ${JSON.stringify(value)}`;
  }
  if (value.length > 2_000) return 'a webhook URL may have 2000 characters at most';
  if (url.username || url.password) return 'a webhook URL must not carry a user or password (the signature authenticates the sender)';
  if (url.hash) return 'a webhook URL must not have a fragment';
  const host = hostOf(url);
  if (url.protocol === 'http:') {
    if (rules.production) return `production sends webhooks over https only, got ${url.protocol}//${url.host}`;
    if (host !== 'localhost' && !isLoopbackAddress(host)) return `plain http only to this machine (localhost, 127.0.0.1, [::1]) in development, got ${url.host}`;
    return undefined;
  }
  if (url.protocol !== 'https:') return `a webhook URL must be https, got ${url.protocol}`;
  if (rules.production && !rules.allowPrivateNetworks && isNonPublicAddress(host)) {
    return `production sends webhooks to public addresses only (WEBHOOK_ALLOW_PRIVATE_NETWORKS=on allows private ones), got ${url.host}`;
  }
  return undefined;
}

const RESOLVE_WAIT_MS = 3_000;

/**
 * The URL's problem, or that of any address its host name resolves to now (the admin command's check
 * when an endpoint is added; a name that does not resolve yet is checked at each attempt).
 */
export async function resolvedProblem(value: string, rules: TargetRules, resolve: Resolver = systemResolver): Promise<string | undefined> {
  const problem = webhookUrlProblem(value, rules);
  if (problem) return problem;
  const url = new URL(value);
  const host = hostOf(url);
  if (isIP(host)) return undefined;
  // bounded: a resolver that does not answer leaves the check to the attempts
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<[]>((resolve) => (timer = setTimeout(() => resolve([]), RESOLVE_WAIT_MS)));
  const addresses = await Promise.race([resolve(host, {}).catch(() => [] as []), gaveUp]).finally(() => clearTimeout(timer));
  for (const { address } of addresses) {
    const refused = addressProblem(address, url.protocol, rules);
    if (refused) return `${url.host}: ${refused}`;
  }
  return undefined;
}

/**
 * Why a connection to `address` (what the URL's host resolved to) is refused under these rules, or
 * undefined: production refuses non-public addresses, development's plain http goes to loopback only.
 */
export function addressProblem(address: string, protocol: string, rules: TargetRules): string | undefined {
  if (protocol === 'http:' && !isLoopbackAddress(address)) return `plain http goes to this machine only, and the host resolved to ${address}`;
  if (rules.production && !rules.allowPrivateNetworks && isNonPublicAddress(address)) {
    return `the host resolved to ${address}, not a public address (WEBHOOK_ALLOW_PRIVATE_NETWORKS=on allows private ones)`;
  }
  return undefined;
}
