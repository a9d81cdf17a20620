/**
 * A stand-in for the system resolver, preloaded into a process a bench runs (`node --import
 * ./bench/bench-resolver.ts`), so that no name is ever looked up beyond this machine however
 * many hosts the crawled site links to. `localhost` and IP literals resolve as usual; every
 * other name, per BENCH_EXTERNAL:
 *   nxdomain (default)  fails with ENOTFOUND, after BENCH_DNS_DELAY_MS (default 0: a slow resolver otherwise)
 *   slow                resolves to BENCH_SLOW_HOSTS_ADDRESS, where the bench serves slow hosts (slow-hosts.ts)
 * `dns.lookup` and `dns.promises.lookup` are replaced, then `syncBuiltinESMExports` makes the
 * named imports of `node:dns` and `node:dns/promises` (the server's) see the replacements.
 */
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { isIP } from 'node:net';

const mode = process.env.BENCH_EXTERNAL || 'nxdomain';
if (mode !== 'nxdomain' && mode !== 'slow') throw new Error(`BENCH_EXTERNAL: unknown "${mode}" (known: nxdomain, slow)`);
const slowHostsAddress = process.env.BENCH_SLOW_HOSTS_ADDRESS;
if (mode === 'slow' && !slowHostsAddress) throw new Error('BENCH_EXTERNAL=slow needs BENCH_SLOW_HOSTS_ADDRESS');
const delayMs = Number(process.env.BENCH_DNS_DELAY_MS || 0);
if (!Number.isFinite(delayMs) || delayMs < 0)
  throw new Error(`BENCH_DNS_DELAY_MS must be a number of ms, got "${process.env.BENCH_DNS_DELAY_MS}"`);

const systemLookup = dns.lookup;
const isLocal = (hostname: string) => isIP(hostname) !== 0 || hostname === 'localhost' || hostname.endsWith('.localhost');

/** What a name other than a local one answers: an error, or the slow hosts' address. */
function standIn(hostname: string): { error: NodeJS.ErrnoException } | { address: LookupAddress } {
  if (mode === 'slow') return { address: { address: slowHostsAddress!, family: 4 } };
  const error: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
    code: 'ENOTFOUND',
    errno: -3008,
    syscall: 'getaddrinfo',
    hostname,
  });
  return { error };
}

type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function benchLookup(hostname: string, options: unknown, callback?: unknown): void {
  const done = (typeof options === 'function' ? options : callback) as Callback;
  const settings: LookupOptions =
    typeof options === 'object' && options !== null ? (options as LookupOptions) : typeof options === 'number' ? { family: options } : {};
  if (isLocal(hostname)) return (systemLookup as (...args: unknown[]) => void)(hostname, settings, done);
  const answer = standIn(hostname);
  setTimeout(() => {
    if ('error' in answer) return done(answer.error, settings.all ? [] : '', 0);
    if (settings.all) return done(null, [answer.address]);
    done(null, answer.address.address, answer.address.family);
  }, delayMs);
}

async function benchPromisesLookup(hostname: string, options?: number | LookupOptions): Promise<LookupAddress | LookupAddress[]> {
  return new Promise((resolve, reject) => {
    benchLookup(hostname, options ?? {}, (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
      if (error) return reject(error);
      resolve(Array.isArray(address) ? address : { address, family: family ?? 4 });
    });
  });
}

dns.lookup = benchLookup as typeof dns.lookup;
dns.promises.lookup = benchPromisesLookup as typeof dns.promises.lookup;
syncBuiltinESMExports();
