/**
 * Instances of one check kept per page, samples included. A finding keeps as many per URL
 * (audit/finding-instances.ts), so the facts a check reads keep them too: every one a page
 * is likely to have, while a page of fifty thousand broken images still costs a bounded
 * amount of memory and report storage.
 */
export const MAX_INSTANCES = 1000;
/** Long hrefs and texts are cut so a report row stays readable. */
const INSTANCE_CHARS = 160;

/** An instance as findings keep it: at most INSTANCE_CHARS code points, an ellipsis where it was cut. */
export function shortenInstance(instance: string): string {
  // No string of INSTANCE_CHARS UTF-16 units has more code points: the common case reads no code point.
  if (instance.length <= INSTANCE_CHARS) return instance;
  const points = [...instance];
  return points.length <= INSTANCE_CHARS ? instance : `${points.slice(0, INSTANCE_CHARS - 1).join('')}…`;
}

/** Everything a check found on a page: all of it counted, the first MAX_INSTANCES described. */
export interface CountedInstances {
  count: number;
  /** Short descriptions in document order (`input[type=email][name=mail]#m`), shortened as findings keep them. */
  instances: string[];
}

export function noInstances(): CountedInstances {
  return { count: 0, instances: [] };
}

/**
 * Counts one instance, and describes it only while there is room: a page of ten thousand
 * unlabeled buttons builds no more descriptions than it keeps.
 */
export function countInstance(found: CountedInstances, describe: () => string): void {
  found.count++;
  if (found.instances.length < MAX_INSTANCES) found.instances.push(shortenInstance(describe()));
}
