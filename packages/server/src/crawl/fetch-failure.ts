import { BlockedAddressError } from '../outbound/address-guard.ts';
import type { FetchDeadline } from './fetch-deadline.ts';

/**
 * Why a request got no answer, in words a user reads and a report can group by:
 * 'dns' (the name does not resolve), 'refused', 'timeout', 'tls' (certificate or
 * handshake), 'reset' (the connection dropped), 'blocked-address' (the address guard),
 * 'aborted' (the caller stopped: no result), else 'network: <message>'.
 */
export type FetchFailure = 'dns' | 'refused' | 'timeout' | 'tls' | 'reset' | 'blocked-address' | 'aborted' | `network: ${string}`;

/** getaddrinfo's failures (dns.lookup), c-ares' ENODATA among them. */
const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'EAI_ADDRFAMILY', 'ENODATA']);
const TIMEOUT = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** undici's "other side closed" is UND_ERR_SOCKET. */
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
/** OpenSSL's verification codes as Node names them (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, …) and its handshake errors. */
const TLS = /^(ERR_SSL_|ERR_TLS_|EPROTO$)|CERT|^UNABLE_TO_|^INVALID_CA$|^HOSTNAME_MISMATCH$|^PATH_LENGTH_EXCEEDED$|^INVALID_PURPOSE$/;

/** Failures that make the whole host unusable: every other link to it would fail the same way. */
export const HOST_FAILURES: ReadonlySet<FetchFailure> = new Set<FetchFailure>(['dns', 'refused']);

function errorCode(error: unknown): string {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  return String(typeof code === 'string' ? code : (cause?.code ?? ''));
}

export function fetchFailure(error: unknown, deadline: FetchDeadline): FetchFailure {
  if (deadline.cancelled) return 'aborted';
  if (deadline.expired) return 'timeout';
  if (error instanceof BlockedAddressError || (error as { cause?: unknown }).cause instanceof BlockedAddressError) return 'blocked-address';
  const code = errorCode(error);
  if (DNS.has(code)) return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (TIMEOUT.has(code)) return 'timeout';
  if (RESET.has(code)) return 'reset';
  if (TLS.test(code)) return 'tls';
  return `network: ${(error as Error).message}`;
}
