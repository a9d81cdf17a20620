import { type LabDistribution, type LabMetric, labMetrics, rateLab } from '@loupe/contract';
import { html, type SafeHtml } from './html-escape.ts';

const names: Record<LabMetric, string> = {
  lcpMs: 'Largest contentful paint (LCP)',
  cls: 'Cumulative layout shift (CLS)',
  tbtMs: 'Total blocking time (TBT)',
  ttfbMs: 'Time to first byte (TTFB)',
};

/** The share page's colours for Google's ratings, at 4.5:1 on white like the rest of the page. */
export const labCss = `.lab-good{color:#1a7f37}.lab-needs-improvement{color:#8a4b00}.lab-poor{color:#b42318}
.lab-value{font-weight:600}`;

function reading(metric: LabMetric, value: number | null): string {
  if (value === null) return '–';
  if (metric === 'cls') return String(Math.round(value * 1000) / 1000);
  if (metric === 'lcpMs') return `${(value / 1000).toFixed(1)} s`;
  return `${Math.round(value)} ms`;
}

/** A rendering crawl's lab distribution on the public page: p75s rated on Google's thresholds, and the counts. */
export function renderLabSection(lab: LabDistribution | null): SafeHtml | null {
  if (lab === null) return null;
  const cell = (metric: LabMetric, value: number | null) =>
    html`<td class="lab-value${value === null ? '' : ` lab-${rateLab(metric, value)}`}">${reading(metric, value)}</td>`;
  return html`<section aria-labelledby="lab">
<h2 id="lab">Lab metrics</h2>
<p class="muted">${lab.pages} pages loaded in a browser: ${lab.rendered} rendered, ${lab.timeouts} out of time, ${lab.failed} failed.</p>
<div class="table">
<table>
<thead><tr><th scope="col">Metric</th><th scope="col">p50</th><th scope="col">p75</th><th scope="col">p90</th><th scope="col">Good</th><th scope="col">Needs improvement</th><th scope="col">Poor</th></tr></thead>
<tbody>
${labMetrics.map((metric) => {
  const spread = lab.metrics[metric];
  return html`<tr><th scope="row">${names[metric]}</th>${cell(metric, spread.p50)}${cell(metric, spread.p75)}${cell(metric, spread.p90)}<td>${spread.good}</td><td>${spread.needsImprovement}</td><td>${spread.poor}</td></tr>
`;
})}</tbody>
</table>
</div>
</section>`;
}
