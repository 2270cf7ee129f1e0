import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Server-side request forgery guard for webhook URLs (issue 24). A URL's host is resolved once;
 * if any address it resolves to is loopback, private, link-local, cloud metadata, multicast or
 * otherwise not public, the URL is refused. The sender then connects to the address checked
 * here, never resolving again, so a DNS answer that changes between the check and the connection
 * (rebinding) cannot switch it. `allowPrivate` (WEBHOOK_ALLOW_PRIVATE) lifts the address rule
 * for local development and tests; the scheme rule stays.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 itself
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, 169.254.169.254 (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local, fd00::/8 among them (fd00:ec2::254: metadata)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['100::', 64], // discard
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 address carries (mapped `::ffff:a.b.c.d`, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1] as string;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hex) {
    const hi = Number.parseInt(hex[1] as string, 16);
    const lo = Number.parseInt(hex[2] as string, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  if (sixToFour) {
    const hi = Number.parseInt(sixToFour[1] as string, 16);
    const lo = Number.parseInt(sixToFour[2] as string, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** True when `address` (an IP literal) is not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== null) return blocked.check(inner, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true; // not an address at all: never trusted
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

export interface CheckedUrl {
  url: URL;
  /** The address to connect to (checked). */
  address: string;
  family: 4 | 6;
}

export class RefusedUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedUrlError';
  }
}

/** The URL's shape: https (http when `allowHttp`), no credentials, a host. Throws RefusedUrlError. */
export function parseWebhookUrl(raw: string, allowHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedUrlError('is not a URL');
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    throw new RefusedUrlError(allowHttp ? 'must be http or https' : 'must be https');
  }
  if (url.username || url.password) throw new RefusedUrlError('must not carry credentials');
  if (!url.hostname) throw new RefusedUrlError('needs a host');
  return url;
}

/**
 * Resolves the URL's host and checks every address; resolves to the one to connect to.
 * Throws RefusedUrlError for a private address (unless `allowPrivate`) or a host that does not resolve.
 */
export async function checkWebhookUrl(
  raw: string,
  options: { allowHttp: boolean; allowPrivate: boolean; resolve?: Resolver },
): Promise<CheckedUrl> {
  const url = parseWebhookUrl(raw, options.allowHttp);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let answers: { address: string; family: number }[];
  try {
    answers = isIP(host)
      ? [{ address: host, family: isIP(host) }]
      : await (options.resolve ?? systemResolver)(host);
  } catch {
    throw new RefusedUrlError(`host ${host} does not resolve`);
  }
  if (answers.length === 0) throw new RefusedUrlError(`host ${host} does not resolve`);
  if (!options.allowPrivate) {
    const bad = answers.find((a) => isPrivateAddress(a.address));
    if (bad) {
      throw new RefusedUrlError(
        `resolves to ${bad.address}, a loopback, private, link-local or metadata address (WEBHOOK_ALLOW_PRIVATE=true allows it for local development)`,
      );
    }
  }
  const first = answers[0] as { address: string; family: number };
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
