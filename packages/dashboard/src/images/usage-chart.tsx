import type { UsageDay } from '@loupe/contract';

export interface UsageMetric {
  key: 'requests' | 'bytesServed' | 'transforms';
  label: string;
  format: (value: number) => string;
}

const WIDTH = 640;
const HEIGHT = 180;
const AXIS = 22;

/**
 * Bars of one metric per day, scaled to the highest day, in a small SVG (no chart library:
 * the bundle stays small). Each bar has its date and value as a tooltip; the page shows the
 * same numbers in a table for those who cannot see the chart.
 */
export function UsageChart({ days, metric }: { days: UsageDay[]; metric: UsageMetric }) {
  const values = days.map((day) => day[metric.key]);
  const highest = Math.max(0, ...values);
  const total = values.reduce((sum, value) => sum + value, 0);
  const slot = WIDTH / Math.max(1, days.length);
  const bar = Math.max(1, slot * 0.75);
  const plot = HEIGHT - AXIS;
  const peak = days[values.indexOf(highest)];
  const summary =
    highest === 0
      ? `${metric.label} per day over ${days.length} days: none yet.`
      : `${metric.label} per day over ${days.length} days: ${metric.format(total)} in all, highest ${metric.format(highest)} on ${peak?.date}.`;

  return (
    <svg className="usage-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary}>
      <line x1={0} y1={plot} x2={WIDTH} y2={plot} className="axis" />
      {days.map((day, index) => {
        const value = day[metric.key];
        const height = highest === 0 ? 0 : Math.max(value > 0 ? 1 : 0, (value / highest) * (plot - 12));
        return (
          <rect key={day.date} className="bar" x={index * slot + (slot - bar) / 2} y={plot - height} width={bar} height={height}>
            <title>
              {day.date}: {metric.format(value)}
            </title>
          </rect>
        );
      })}
      <text x={0} y={HEIGHT - 6} className="tick">
        {days[0]?.date}
      </text>
      <text x={WIDTH} y={HEIGHT - 6} className="tick" textAnchor="end">
        {days.at(-1)?.date}
      </text>
      {highest > 0 && (
        <text x={WIDTH} y={10} className="tick" textAnchor="end">
          max {metric.format(highest)}
        </text>
      )}
    </svg>
  );
}
