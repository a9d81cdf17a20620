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

/** IANA's global unicast space (2000::/3): the only IPv6 addresses assigned to hosts on the internet. */
const globalUnicast = ipaddr.parseCIDR('2000::/3');

/**
 * The IPv4 addresses an IPv6 address stands for, by ipaddr.js's range (the tables are the
 * library's; only where each form keeps its IPv4 is ours): mapped and translated addresses
 * (RFC 4291, 6145) and NAT64 (RFC 6052; RFC 8215's local-use /48 as the /96 prefixes DNS64
 * answers with) in the last 32 bits, 6to4 (RFC 3056) in bits 16–47, Teredo (RFC 4380) both
 * its server and its client, inverted. IPv4-compatible addresses (::a.b.c.d, deprecated by
 * RFC 4291 §2.5.5.1 but still routed by some stacks) have no range of their own: the first
 * 96 bits are zero. Undefined for an address that carries none.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const bytes = address.toByteArray();
  const ipv4At = (offset: number, invert = false) =>
    new ipaddr.IPv4(bytes.slice(offset, offset + 4).map((byte) => (invert ? byte ^ 0xff : byte)));
  switch (address.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return [ipv4At(12)];
    case '6to4':
      return [ipv4At(2)];
    case 'teredo':
      return [ipv4At(4), ipv4At(12, true)];
  }
  return bytes.slice(0, 12).every((byte) => byte === 0) ? [ipv4At(12)] : undefined;
}

/**
 * True for globally routable unicast addresses only. Loopback, private, link-local (which
 * holds cloud metadata at 169.254.169.254), CGNAT, multicast, reserved and their IPv6
 * equivalents are refused. An IPv6 address that carries an IPv4 address (mapped,
 * compatible, NAT64, 6to4, Teredo) reaches that IPv4 host, so it is judged as that address:
 * `::7f00:1` is loopback, `64:ff9b::8.8.8.8` public. Zone ids (`%eth0`) change nothing.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const ipv6 = parsed as ipaddr.IPv6;
  const carried = embeddedIPv4(ipv6);
  if (carried) return carried.every((ipv4) => ipv4.range() === 'unicast');
  return ipv6.range() === 'unicast' && ipv6.match(globalUnicast);
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
