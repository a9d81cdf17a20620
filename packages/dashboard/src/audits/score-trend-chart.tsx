import type { ProjectTrend } from '@loupe/contract';
import { Link } from 'react-router';

// Drawn for a card about 20rem wide, where the labels stay legible; it scales with the card.
const WIDTH = 340;
const HEIGHT = 160;
const PAD = { top: 10, right: 12, bottom: 22, left: 28 };
/** The grade boundaries (A ≥ 90 … F < 60), drawn as guides. */
const GUIDES = [90, 80, 70, 60];

/**
 * The project's health score over its reports as a small SVG line (no chart library: the
 * bundle stays small). Each point links to its report; the whole is described in words too.
 */
export function ScoreTrendChart({ trend, reportHref }: { trend: ProjectTrend; reportHref: (reportId: string) => string }) {
  const points = trend.points.filter((point) => point.score !== null);
  if (points.length === 0) return <p className="muted">No scored report yet: the trend starts with the first one.</p>;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (index: number) => PAD.left + (points.length === 1 ? plotWidth / 2 : (index / (points.length - 1)) * plotWidth);
  const y = (score: number) => PAD.top + (1 - score / 100) * plotHeight;
  const first = points[0]!;
  const last = points.at(-1)!;
  const summary =
    points.length === 1
      ? `One report, health ${last.score}.`
      : `${points.length} reports from ${day(first.createdAt)} to ${day(last.createdAt)}: health ${first.score} then ${points
          .slice(1)
          .map((point) => point.score)
          .join(', ')}.`;
  return (
    <figure className="trend-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Health score trend. ${summary}`}>
        {GUIDES.map((score) => (
          <g key={score} className="trend-guide">
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(score)} y2={y(score)} />
            <text x={PAD.left - 6} y={y(score)} dy="0.32em" textAnchor="end">
              {score}
            </text>
          </g>
        ))}
        <polyline className="trend-line" points={points.map((point, index) => `${x(index)},${y(point.score!)}`).join(' ')} />
        {points.map((point, index) => (
          <Link
            key={point.reportId}
            to={reportHref(point.reportId)}
            aria-label={`Report of ${day(point.createdAt)}: health ${point.score}`}
          >
            <circle className={`trend-point${point.completeness === 'partial' ? ' partial' : ''}`} cx={x(index)} cy={y(point.score!)} r={5}>
              <title>{`${day(point.createdAt)}: ${point.score} (${point.grade ?? '–'}), ${point.pages} pages, ${point.errors} errors${point.completeness === 'partial' ? ', partial crawl' : ''}`}</title>
            </circle>
          </Link>
        ))}
        <text className="trend-axis" x={PAD.left} y={HEIGHT - 6}>
          {day(first.createdAt)}
        </text>
        {points.length > 1 && (
          <text className="trend-axis" x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end">
            {day(last.createdAt)}
          </text>
        )}
      </svg>
      <figcaption className="muted">
        {summary}
        {points.some((point) => point.completeness === 'partial') && ' Hollow points are partial crawls.'}
      </figcaption>
    </figure>
  );
}

function day(timestamp: string): string {
  return new Date(timestamp).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}
