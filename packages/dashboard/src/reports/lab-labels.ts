import { type LabMetric, type LabRating, labThresholds, rateLab } from '@loupe/contract';

/** The lab metrics as a report names them, with how each reads. */
export const labMetricLabels: Record<LabMetric, { short: string; long: string }> = {
  lcpMs: { short: 'LCP', long: 'Largest contentful paint' },
  cls: { short: 'CLS', long: 'Cumulative layout shift' },
  tbtMs: { short: 'TBT', long: 'Total blocking time' },
  ttfbMs: { short: 'TTFB', long: 'Time to first byte' },
};

export const labRatingLabels: Record<LabRating, string> = {
  good: 'good',
  'needs-improvement': 'needs improvement',
  poor: 'poor',
};

/** A reading as people read it: seconds for paints, a bare number for CLS, milliseconds for the rest. */
export function formatLab(metric: LabMetric, value: number | null): string {
  if (value === null) return '–';
  if (metric === 'cls') return value.toFixed(3).replace(/\.?0+$/, '') || '0';
  if (metric === 'lcpMs') return `${(value / 1000).toFixed(1)} s`;
  return `${Math.round(value).toLocaleString('en')} ms`;
}

/** "good ≤ 2.5 s, poor > 4.0 s": the thresholds a rating is against. */
export function thresholdsText(metric: LabMetric): string {
  const { good, poor } = labThresholds[metric];
  return `good ≤ ${formatLab(metric, good)}, poor > ${formatLab(metric, poor)}`;
}

export function ratingOf(metric: LabMetric, value: number | null): LabRating | null {
  return value === null ? null : rateLab(metric, value);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
