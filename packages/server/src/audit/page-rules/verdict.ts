import { keptInstances } from '../finding-instances.ts';
import type { Severity } from '../health-score.ts';
import type { Verdict } from '../rule.ts';

export interface VerdictOptions {
  /** The measured value, in words: "74 characters". */
  detail?: string;
  /** Instances, when there are more than the ones given (links past the cap, …). */
  count?: number;
  /** Set only when this instance is worse than the rule's default. */
  severity?: Severity;
}

/**
 * The verdict of a check that found `instances` (one short description each), or null when
 * it found none. Every page rule builds its answer here, so count, instances and detail are
 * shaped the same way in every finding: three samples, then the rest up to the bound.
 */
export function verdict(instances: readonly string[], options: VerdictOptions = {}): Verdict {
  const count = options.count ?? instances.length;
  if (count === 0) return null;
  const found: NonNullable<Verdict> = { count, ...keptInstances(instances) };
  if (options.detail !== undefined) found.detail = options.detail;
  if (options.severity !== undefined) found.severity = options.severity;
  return found;
}

/** What `toLocaleString('en-US')` uses, made once: that call builds a new formatter each time. */
const EN_US = new Intl.NumberFormat('en-US');

/** "1 word", "1,204 words": the measured values of details, in one spelling. */
export function quantity(amount: number, unit: string, plural = `${unit}s`): string {
  return `${EN_US.format(amount)} ${amount === 1 ? unit : plural}`;
}

/** "1,001 of 1,204 buttons": how many of a page's elements a check found, spelled as `quantity`. */
export function share(part: number, whole: number, unit: string): string {
  return `${EN_US.format(part)} of ${quantity(whole, unit)}`;
}

/** "812 bytes", "4.1 KiB", "1.4 MiB": sizes in details, in one spelling. */
export function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return quantity(bytes, 'byte');
}
