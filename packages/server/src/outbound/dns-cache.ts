import type { LookupAddress } from 'node:dns';
import type { Resolve } from './address-guard.ts';

type Answer = { error: NodeJS.ErrnoException | null; addresses: LookupAddress[] };

/**
 * A resolver that asks `resolve` once per name and family and answers every later call from
 * memory, failures included: a crawl linking 2,000 times to a host that does not resolve
 * asks the resolver once. Meant for one crawl's life (no TTLs): the guard still checks every
 * answer at connect time, so a cached address is judged as a fresh one would be.
 */
export function cachingResolve(resolve: Resolve): Resolve {
  const answers = new Map<string, Promise<Answer>>();
  return (hostname, options, callback) => {
    const key = `${hostname.toLowerCase()} ${options.family ?? 0}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = new Promise<Answer>((settle) => resolve(hostname, options, (error, addresses) => settle({ error, addresses })));
      answers.set(key, answer);
    }
    void answer.then(({ error, addresses }) => callback(error, addresses));
  };
}
