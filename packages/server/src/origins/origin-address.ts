import { assertPublicHost, BlockedAddressError } from '../outbound/address-guard.ts';

/** Plain http is for a test's loopback origin only, and only where private addresses are allowed. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Why Loupe would not fetch from this origin address, or undefined when it would: https only
 * (http to loopback when LOUPE_CRAWL_ALLOW_PRIVATE is set, for tests), and a literal address
 * must be public. Names are checked again at every connection (address-guard.ts).
 */
export function originAddressProblem(address: string, allowPrivate: boolean): string | undefined {
  const url = new URL(address);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate && isLoopbackHost(url.hostname))) {
    return 'Must be an https address.';
  }
  if (allowPrivate) return undefined;
  try {
    assertPublicHost(url.hostname);
    return undefined;
  } catch (error) {
    if (error instanceof BlockedAddressError) return 'This address is not public; Loupe does not fetch from it.';
    throw error;
  }
}
