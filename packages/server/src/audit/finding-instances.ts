import { MAX_INSTANCES, shortenInstance } from '../page-facts/counted-instances.ts';
import type { Finding } from './rule.ts';

/** A finding shows three examples in summaries (audit-checks.md §0). */
export const MAX_SAMPLES = 3;
/** Findings keep instances per URL up to the bound the page facts they come from keep (counted-instances.ts). */
export { MAX_INSTANCES, shortenInstance };

/** A finding's instances, shortened and split into the three samples and the rest (kept up to MAX_INSTANCES). */
export function keptInstances(instances: readonly string[]): Pick<Finding, 'samples' | 'more'> {
  const kept = instances.slice(0, MAX_INSTANCES).map(shortenInstance);
  return kept.length > MAX_SAMPLES ? { samples: kept.slice(0, MAX_SAMPLES), more: kept.slice(MAX_SAMPLES) } : { samples: kept };
}

/** How a finding's instances are stored: samples always, the rest only when there is a rest. */
export function instanceColumns(finding: Pick<Finding, 'samples' | 'more'>): { samples: string; more_instances: string | null } {
  return {
    samples: JSON.stringify(finding.samples),
    more_instances: finding.more && finding.more.length > 0 ? JSON.stringify(finding.more) : null,
  };
}

/** The instances a stored finding kept, samples first. */
export function storedInstances(row: { samples: string; more_instances: string | null }): string[] {
  const samples = JSON.parse(row.samples) as string[];
  return row.more_instances === null ? samples : [...samples, ...(JSON.parse(row.more_instances) as string[])];
}
