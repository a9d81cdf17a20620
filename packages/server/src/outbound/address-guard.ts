import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A fetch refused because its target resolves to an address we never connect to. */
export class BlockedAddressError extends Error {
  readonly address: string;

  constructor(host: string, address: string) {
    super(`Refusing to connect to ${host} (${address}): not a public address.`);
    this.name = 'BlockedAddressError';
    this.address = address;
  }
}

/**
 * True for globally routable unicast addresses only. Loopback, private, link-local (which
 * holds cloud metadata at 169.254.169.254), CGNAT, multicast, reserved and their IPv6
 * equivalents are refused; IPv4-mapped IPv6 is judged as the IPv4 address it carries, and
 * NAT64/6to4/Teredo forms are refused because they can tunnel to any IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** Throws BlockedAddressError for a literal IP host that is not public (DNS lookup is skipped for literals). */
export function assertPublicHost(hostname: string): void {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host)) throw new BlockedAddressError(host, host);
}

/**
 * How names are resolved: `dns.lookup` in production, a stand-in in tests. It is always
 * called with `all: true`, so it answers every address of the name.
 */
export type Resolve = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for sockets (undici's `connect.lookup`, handed on to `net.connect`). It is the
 * socket's only resolution: Node calls it when the connection is made and connects to
 * exactly the address(es) it returns, so the address checked is the address connected to
 * and a DNS answer that changes between a check and the connection (rebinding) cannot slip
 * through. Every new connection resolves and checks again; a kept-alive one stays on the
 * address it was checked for. A name with ANY non-public address is refused whole, even if
 * the others are public, as ssrf-req-filter and request-filtering-agent do: connecting to
 * the public rest would be safe too, but a name that mixes them has no business in a crawl
 * and one clear refusal beats a fetch that works or fails with the order of DNS answers.
 * `allowPrivate` (LOUPE_CRAWL_ALLOW_PRIVATE) skips the check, not the resolver.
 */
export function guardedLookup(resolve: Resolve = dnsLookup, allowPrivate = false): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, list) => {
      if (error) return callback(error, '', 0);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address.`), { code: 'ENOTFOUND' }), '', 0);
      const blocked = allowPrivate ? undefined : list.find((entry) => !isPublicAddress(entry.address));
      if (blocked) return callback(new BlockedAddressError(hostname, blocked.address), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, first.address, first.family);
    });
  };
}

/** The guarded lookup over the system resolver. */
export const publicOnlyLookup: LookupFunction = guardedLookup();
