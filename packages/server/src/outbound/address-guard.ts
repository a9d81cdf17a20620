import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
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
 * A `lookup` for sockets that resolves, then refuses if ANY address is not public. It runs
 * at connect time and the socket uses exactly the address checked, so a DNS answer that
 * changes between a check and the connection (rebinding) cannot slip through.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as LookupAddress[];
    const blocked = list.find((entry) => !isPublicAddress(entry.address));
    if (blocked) return callback(new BlockedAddressError(hostname, blocked.address), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    const first = list[0] as LookupAddress;
    return callback(null, first.address, first.family);
  });
};
