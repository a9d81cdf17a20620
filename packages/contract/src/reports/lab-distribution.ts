import { z } from 'zod';
import { labMetrics } from './lab-thresholds.ts';
import { resourceKinds } from './page-lab.ts';

const Count = z.number().int().min(0);

export const MetricDistribution = z
  .object({
    measured: Count.describe('Rendered pages with a reading of this metric.'),
    p50: z.number().nullable().describe('Median (nearest rank); null when no page had a reading.'),
    p75: z.number().nullable().describe("75th percentile: the figure Google's Core Web Vitals assess a site by."),
    p90: z.number().nullable(),
    good: Count.describe('Pages at or under the good threshold (labThresholds).'),
    needsImprovement: Count,
    poor: Count.describe('Pages over the poor threshold.'),
  })
  .meta({ id: 'MetricDistribution' });
export type MetricDistribution = z.infer<typeof MetricDistribution>;

/** Medians over the pages loaded: requests a page made, bytes it transferred (headers and compressed bodies). */
const MedianTransfer = z.object({ requests: z.number(), bytes: z.number() }).meta({ id: 'MedianTransfer' });

/** A rendering crawl's lab readings over the site (issue #28): how its pages spread on Google's thresholds. */
export const LabDistribution = z
  .object({
    pages: Count.describe('Pages the browser loaded.'),
    rendered: Count.describe('Of those, pages that rendered (no error).'),
    failed: Count.describe('Pages whose tab crashed or whose navigation failed.'),
    timeouts: Count.describe("Pages whose render budget ran out (error 'timeout')."),
    metrics: z.object({
      lcpMs: MetricDistribution,
      cls: MetricDistribution,
      tbtMs: MetricDistribution,
      ttfbMs: MetricDistribution,
    }),
    transfer: MedianTransfer.extend({
      byKind: z.record(z.enum(resourceKinds), MedianTransfer).describe('Medians over the pages, per kind of resource.'),
    })
      .nullable()
      .describe('Null when no page was loaded.'),
  })
  .meta({ id: 'LabDistribution' });
export type LabDistribution = z.infer<typeof LabDistribution>;

const P75 = z.number().nullable();

/** The 75th percentiles of a report's lab distribution: what a trend or a diff follows. */
export const LabP75s = z
  .object({ lcpMs: P75, cls: P75, tbtMs: P75, ttfbMs: P75 })
  .meta({ id: 'LabP75s' })
  .describe("The p75 of each lab metric over the report's rendered pages; null where none had a reading.");
export type LabP75s = z.infer<typeof LabP75s>;

/** The p75s a trend or a diff follows; null for a report whose crawl did not render. */
export function labP75s(lab: LabDistribution | null): LabP75s | null {
  if (lab === null) return null;
  return Object.fromEntries(labMetrics.map((metric) => [metric, lab.metrics[metric].p75])) as LabP75s;
}

const LabChange = z
  .object({ before: P75, after: P75, delta: P75.describe('after − before; null when either is null.') })
  .meta({ id: 'LabChange' });

/** How the p75s moved between two reports. */
export const LabP75Changes = z
  .object({ lcpMs: LabChange, cls: LabChange, tbtMs: LabChange, ttfbMs: LabChange })
  .meta({ id: 'LabP75Changes' });
export type LabP75Changes = z.infer<typeof LabP75Changes>;
