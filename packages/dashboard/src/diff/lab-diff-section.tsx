import { type LabP75Changes, labMetrics } from '@loupe/contract';
import { formatLab, labMetricLabels, ratingOf } from '../reports/lab-labels.ts';
import { ChangeTableHead } from './change-table-head.tsx';

/** Lower is better for every lab metric: a rise is worse. */
const trendOf = (delta: number | null) => (delta === null || delta === 0 ? 'same' : delta < 0 ? 'better' : 'worse');

/** How the p75 of each lab metric moved between the two reports (null on a side whose crawl did not render). */
export function LabDiffSection({ lab }: { lab: LabP75Changes }) {
  return (
    <section className="card" aria-labelledby="diff-lab-heading">
      <h2 id="diff-lab-heading">Lab metrics (p75)</h2>
      <div className="table-scroll">
        <table>
          <ChangeTableHead first="Metric" />
          <tbody>
            {labMetrics.map((metric) => {
              const { before, after, delta } = lab[metric];
              return (
                <tr key={metric} data-metric={metric}>
                  <th scope="row">
                    <abbr title={labMetricLabels[metric].long}>{labMetricLabels[metric].short}</abbr>
                  </th>
                  <td className={`numeric lab-value ${ratingOf(metric, before) ?? 'unrated'}`}>{formatLab(metric, before)}</td>
                  <td className={`numeric lab-value ${ratingOf(metric, after) ?? 'unrated'}`}>{formatLab(metric, after)}</td>
                  <td className={`numeric diff-delta ${trendOf(delta)}`}>
                    {delta === null ? '–' : `${delta > 0 ? '+' : delta < 0 ? '−' : ''}${formatLab(metric, Math.abs(delta))}`}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
