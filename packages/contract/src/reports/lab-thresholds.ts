/**
 * Google's Core Web Vitals thresholds (web.dev/articles/vitals, /articles/tbt, /articles/ttfb):
 * a reading at or under `good` is good, over `poor` is poor, between needs improvement. The one
 * place they are written: the report's distributions, the page rules and the dashboard's colours.
 */
export const labThresholds = {
  lcpMs: { good: 2500, poor: 4000 },
  cls: { good: 0.1, poor: 0.25 },
  tbtMs: { good: 200, poor: 600 },
  ttfbMs: { good: 800, poor: 1800 },
} as const;

export type LabMetric = keyof typeof labThresholds;
export const labMetrics = Object.keys(labThresholds) as LabMetric[];

export type LabRating = 'good' | 'needs-improvement' | 'poor';

/** How a reading of a metric rates on its thresholds. */
export function rateLab(metric: LabMetric, value: number): LabRating {
  const { good, poor } = labThresholds[metric];
  if (value <= good) return 'good';
  return value > poor ? 'poor' : 'needs-improvement';
}
