import { labMetrics, type ProjectTrend } from '@loupe/contract';
import { Link } from 'react-router';
import { formatLab, labMetricLabels, ratingOf } from '../reports/lab-labels.ts';

/** Reports of the trend shown with their lab p75s: the newest few, enough to see a direction. */
const SHOWN = 5;

/** The p75 of each lab metric over the project's rendering reports, newest first; nothing when none rendered. */
export function LabTrendTable({ trend, reportHref }: { trend: ProjectTrend; reportHref: (reportId: string) => string }) {
  const rendered = trend.points
    .filter((point) => point.lab !== null)
    .slice(-SHOWN)
    .reverse();
  if (rendered.length === 0) return null;
  return (
    <div className="table-scroll">
      <table className="lab-trend">
        <caption>Lab metrics (p75) of the newest rendering crawls</caption>
        <thead>
          <tr>
            <th scope="col">Report</th>
            {labMetrics.map((metric) => (
              <th key={metric} scope="col" className="numeric">
                <abbr title={labMetricLabels[metric].long}>{labMetricLabels[metric].short}</abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rendered.map((point) => (
            <tr key={point.reportId}>
              <th scope="row">
                <Link to={reportHref(point.reportId)}>{new Date(point.createdAt).toLocaleDateString()}</Link>
              </th>
              {labMetrics.map((metric) => {
                const value = point.lab?.[metric] ?? null;
                return (
                  <td key={metric} className={`numeric lab-value ${ratingOf(metric, value) ?? 'unrated'}`}>
                    {formatLab(metric, value)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
