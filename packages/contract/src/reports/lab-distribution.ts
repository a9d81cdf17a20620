import { z } from 'zod';
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
