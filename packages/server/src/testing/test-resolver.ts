import type { LookupAddress } from 'node:dns';
import type { Resolve } from '../outbound/address-guard.ts';

/** A resolver for tests that counts what it was asked. */
export interface TestResolver {
  resolve: Resolve;
  /** Lookups per host name. */
  lookups: Map<string, number>;
}

/**
 * Answers every name without leaving the machine: names under `.test` are 127.0.0.1 (reach a
 * loopback server by port), every other name does not exist (ENOTFOUND, as for `.invalid`).
 */
export function loopbackResolver(): TestResolver {
  const lookups = new Map<string, number>();
  const resolve: Resolve = (hostname, _options, callback) => {
    lookups.set(hostname, (lookups.get(hostname) ?? 0) + 1);
    queueMicrotask(() => {
      if (hostname === 'localhost' || hostname.endsWith('.test')) {
        callback(null, [{ address: '127.0.0.1', family: 4 } satisfies LookupAddress]);
      } else {
        callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), []);
      }
    });
  };
  return { resolve, lookups };
}
