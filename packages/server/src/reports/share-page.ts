import type { SharedReport } from '@loupe/contract';
import { html, SafeHtml } from './html-escape.ts';
import { labCss, renderLabSection } from './share-page-lab.ts';

type Health = SharedReport['health'];
type Issue = SharedReport['issues'][number];
type Example = Issue['examples'][number];
type Severity = Issue['severity'];

const severities: readonly { severity: Severity; label: string }[] = [
  { severity: 'error', label: 'Errors' },
  { severity: 'warning', label: 'Warnings' },
  { severity: 'notice', label: 'Notices' },
];

const unscoredReasons: Record<NonNullable<Health['unscoredReason']>, string> = {
  blocked: 'The site refused the crawler, so no page could be checked.',
  'no-html-page': 'The crawl found no HTML page to check.',
};

const integer = new Intl.NumberFormat('en-US');
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

// Colours keep a contrast of at least 4.5:1 with their text (WCAG 2.1 AA).
const css = `
*{box-sizing:border-box}
html{color-scheme:light;-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa;overflow-wrap:anywhere}
header,main,footer{max-width:60rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;line-height:1.3;margin:.5rem 0}
h2{font-size:1.25rem;margin:0 0 .75rem}
h3{font-size:1.1rem;margin:1.5rem 0 .5rem}
h4{font-size:1rem;margin:0 0 .25rem}
section{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1rem;margin:0 0 1rem}
a{color:#0550ae}
code{font:.875em/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:#eff1f3;padding:.1em .3em;border-radius:4px}
.muted{color:#57606a}
.facts{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;margin:0;padding:0;list-style:none;color:#57606a}
.badge{display:inline-block;padding:0 .5em;border-radius:1em;font-size:.875rem;font-weight:600;color:#fff;background:#57606a}
.badge-partial{background:#8a4b00}
.score{display:flex;flex-wrap:wrap;align-items:center;gap:1rem}
.score-value{margin:0;min-width:7rem;padding:.75rem 1rem;border-radius:8px;text-align:center;color:#fff;background:#57606a}
.score-value strong{display:block;font-size:3rem;line-height:1}
.score-green{background:#1a7f37}.score-amber{background:#8a4b00}.score-red{background:#b42318}
.score p{margin:.25rem 0}
.counts{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0 0;padding:0;list-style:none}
.counts li,.severity{padding:.25rem .75rem;border-radius:1em;color:#fff;font-weight:600}
.error{background:#b42318}.warning{background:#8a4b00}.notice{background:#0550ae}
ol.fixes{margin:0;padding-left:1.5rem}
.table{overflow-x:auto}
table{border-collapse:collapse;width:100%}
th,td{padding:.4rem .5rem;border-bottom:1px solid #d0d7de;text-align:right}
th:first-child,td:first-child{text-align:left}
.issue{border-top:1px solid #d0d7de;padding:1rem 0}
.issue dl{display:flex;flex-wrap:wrap;gap:0 1.5rem;margin:.25rem 0}
.issue dt{color:#57606a}.issue dd{margin:0 0 0 .25rem;font-weight:600}
.issue dl div{display:flex}
details{margin-top:.5rem}
summary{cursor:pointer;color:#0550ae}
.examples{padding-left:1.25rem}
.examples li{margin:.5rem 0}
.samples{margin:.25rem 0;padding-left:1.25rem}
${labCss}
`;

/** Where an example page's screenshot is, when its rendering crawl kept one. */
type ScreenshotLink = (pageId: string | null) => string | null;

/** The public page of a shared report (`GET /r/{token}`): static HTML, no scripts, nothing fetched. */
export function renderSharedReportPage(report: SharedReport, options: { jsonUrl: string; screenshotUrl?: ScreenshotLink }): string {
  return renderDocument(
    `Audit of ${hostOf(report.url)} · Loupe`,
    html`${renderHeader(report)}
<main>
${renderHealth(report.health, report.counts)}
${renderLabSection(report.lab)}
${renderTopFixes(report)}
${renderCategories(report.categories)}
${renderIssues(report.issues, options.screenshotUrl ?? (() => null))}
</main>
${renderFooter(options.jsonUrl)}`,
  );
}

/** The answer to an unknown or revoked token: says as little as a wrong token deserves. */
export function renderShareNotFoundPage(): string {
  return renderDocument(
    'Report not found · Loupe',
    html`<main>
<h1>Report not found</h1>
<p>This link does not lead to a shared report. It may have been mistyped, or its owner may have stopped sharing it.</p>
</main>
${renderFooter(null)}`,
  );
}

function renderDocument(title: string, body: SafeHtml): string {
  // The share token is in the page's URL: no-referrer keeps it from the sites the page links to.
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>${title}</title>
<style>${new SafeHtml(css)}</style>
</head>
<body>
${body}
</body>
</html>
`.markup;
}

function renderHeader(report: SharedReport): SafeHtml {
  const partial = report.completeness === 'partial';
  return html`<header>
<p class="muted">Loupe audit report</p>
<h1>${report.url}</h1>
<ul class="facts">
<li><time datetime="${report.createdAt}">${dateTime.format(new Date(report.createdAt))} UTC</time></li>
<li>${report.mode === 'site' ? 'Whole site' : 'Single page'}</li>
<li>${plural(report.pages.crawled, 'page')} crawled</li>
<li>${partial ? html`<span class="badge badge-partial">Partial</span> crawl: canceled, failed or stopped at its page limit` : 'Complete crawl'}</li>
</ul>
</header>`;
}

function renderHealth(health: Health, counts: SharedReport['counts']): SafeHtml {
  const value =
    health.score === null
      ? html`<p class="score-value"><strong>–</strong> Not scored</p>
<p>${unscoredReasons[health.unscoredReason ?? 'no-html-page']}</p>`
      : html`<p class="score-value score-${health.colour ?? 'none'}"><strong>${health.score}</strong> out of 100</p>
<div>
<p>Grade <strong>${health.grade ?? '–'}</strong>${health.margin === null ? '' : html` · ±${health.margin.toFixed(1)} points`}</p>
${health.errorFreeShare === null ? '' : html`<p>${percent.format(floor3(health.errorFreeShare))} of ${plural(health.scoredUrls, 'URL')} have no errors</p>`}
</div>`;
  return html`<section aria-labelledby="health">
<h2 id="health">Health score</h2>
<div class="score">${value}</div>
<ul class="counts" aria-label="Findings by severity">
<li class="error">${plural(counts.errors, 'error')}</li>
<li class="warning">${plural(counts.warnings, 'warning')}</li>
<li class="notice">${plural(counts.notices, 'notice')}</li>
</ul>
</section>`;
}

function renderTopFixes(report: SharedReport): SafeHtml | null {
  if (report.topFixes.length === 0) return null;
  const from = report.health.score ?? '–';
  return html`<section aria-labelledby="top-fixes">
<h2 id="top-fixes">Top fixes</h2>
<ol class="fixes">
${report.topFixes.map(
  (fix) => html`<li>${fix.title}: <strong>${from} → ${fix.scoreWithout}</strong> (+${fix.gain.toFixed(1)})</li>
`,
)}</ol>
</section>`;
}

function renderCategories(categories: SharedReport['categories']): SafeHtml | null {
  if (categories.length === 0) return null;
  return html`<section aria-labelledby="categories">
<h2 id="categories">Categories</h2>
<div class="table">
<table>
<thead><tr><th scope="col">Category</th><th scope="col">Errors</th><th scope="col">Warnings</th><th scope="col">Notices</th><th scope="col">Points lost</th></tr></thead>
<tbody>
${categories.map(
  (
    row,
  ) => html`<tr><th scope="row">${categoryLabel(row.category)}</th><td>${integer.format(row.errors)}</td><td>${integer.format(row.warnings)}</td><td>${integer.format(row.notices)}</td><td>${row.lostPoints.toFixed(1)}</td></tr>
`,
)}</tbody>
</table>
</div>
</section>`;
}

function renderIssues(issues: Issue[], screenshotUrl: ScreenshotLink): SafeHtml {
  const groups = severities
    .map(({ severity, label }) => ({ severity, label, issues: issues.filter((issue) => issue.severity === severity) }))
    .filter((group) => group.issues.length > 0);
  return html`<section aria-labelledby="issues">
<h2 id="issues">Issues</h2>
${
  groups.length === 0
    ? html`<p>No issues found.</p>`
    : groups.map(
        (
          group,
        ) => html`<h3 id="issues-${group.severity}"><span class="severity ${group.severity}">${group.label}</span> (${group.issues.length})</h3>
${group.issues.map((issue) => renderIssue(issue, screenshotUrl))}`,
      )
}
</section>`;
}

function renderIssue(issue: Issue, screenshotUrl: ScreenshotLink): SafeHtml {
  const reach =
    issue.scope === 'site'
      ? html`<div><dt>Scope</dt><dd>whole site${issue.share === null ? '' : html`, ${percent.format(issue.share)} affected`}</dd></div>`
      : html`<div><dt>Pages</dt><dd>${integer.format(issue.pages)}</dd></div>`;
  return html`<article class="issue">
<h4>${issue.title}</h4>
<p><code>${issue.ruleId}</code></p>
<dl>
${reach}
<div><dt>Instances</dt><dd>${integer.format(issue.instances)}</dd></div>
<div><dt>Points lost</dt><dd>${issue.lostPoints.toFixed(1)}</dd></div>
${issue.scoreWithout === null ? '' : html`<div><dt>Score if fixed</dt><dd>${issue.scoreWithout}</dd></div>`}
</dl>
<p><strong>Why it matters:</strong> ${issue.explanation}</p>
<p><strong>How to fix:</strong> ${issue.fix}</p>
${
  issue.examples.length === 0
    ? ''
    : html`<details>
<summary>${plural(issue.examples.length, 'example')}</summary>
<ul class="examples">
${issue.examples.map((example) => renderExample(example, screenshotUrl(example.pageId)))}</ul>
</details>`
}
</article>
`;
}

function renderExample(example: Example, screenshot: string | null): SafeHtml {
  return html`<li>${renderUrl(example.url)}${example.count > 1 ? html` <span class="muted">(${integer.format(example.count)} instances)</span>` : ''}${screenshot === null ? '' : html` · <a href="${screenshot}">screenshot</a>`}
${example.detail === null ? '' : html`<br>${example.detail}`}
${example.samples.length === 0 ? '' : html`<ul class="samples">${example.samples.map((sample) => html`<li><code>${sample}</code></li>`)}</ul>`}
</li>
`;
}

function renderFooter(jsonUrl: string | null): SafeHtml {
  return html`<footer class="muted">
<p>${jsonUrl === null ? '' : html`<a href="${jsonUrl}">This report as JSON</a> · `}Made with Loupe</p>
</footer>`;
}

/** A link only for http(s): a crawled `javascript:` or `data:` URL stays text. */
function renderUrl(url: string): SafeHtml {
  const href = httpHref(url);
  return href === null ? html`<span>${url}</span>` : html`<a href="${href}" rel="nofollow noopener noreferrer">${url}</a>`;
}

function httpHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    // The link goes to what was checked: the parser's serialisation, not the raw text.
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** "structured-data" → "Structured data". */
function categoryLabel(category: string): string {
  const words = category.replaceAll('-', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function plural(count: number, noun: string): string {
  return `${integer.format(count)} ${noun}${count === 1 ? '' : 's'}`;
}

/** Rounds a share down, so 99.96 % without errors is not shown as 100 %. */
function floor3(share: number): number {
  return Math.floor(share * 1000) / 1000;
}
