import type { AlertEvent, FiredCondition } from '@loupe/contract';
import { html, type SafeHtml } from '../reports/html-escape.ts';
import type { MailContent } from './email-sender.ts';

/** Header text must stay one line whatever a project is named. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim();
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** `[Loupe] Docs: score 62 (−9), 3 new errors` — what fired, shortest first. */
export function alertSubject(event: AlertEvent): string {
  const parts: string[] = [];
  if (event.test) parts.push('test alert');
  const fired = (type: FiredCondition['type']) => event.conditions.find((condition) => condition.type === type);
  if (fired('crawlFailed')) parts.push('crawl failed');
  const drop = fired('scoreDropBy');
  const below = fired('scoreBelow');
  if (drop?.type === 'scoreDropBy') parts.push(`score ${drop.score} (−${drop.previousScore - drop.score})`);
  else if (below?.type === 'scoreBelow') parts.push(`score ${below.score}`);
  const newErrors = fired('newErrors');
  if (newErrors?.type === 'newErrors') parts.push(plural(newErrors.count, 'new error', 'new errors'));
  return oneLine(`[Loupe] ${event.project.name}: ${parts.join(', ') || 'alert'}`);
}

/** One sentence per condition that fired, and the new errors named (up to the examples kept). */
function conditionLines(condition: FiredCondition): { line: string; items: string[] } {
  switch (condition.type) {
    case 'crawlFailed':
      return { line: condition.error ? `The crawl failed: ${condition.error}` : 'The crawl failed.', items: [] };
    case 'scoreBelow':
      return { line: `The health score is ${condition.score}, below ${condition.threshold}.`, items: [] };
    case 'scoreDropBy':
      return {
        line: `The health score fell by ${condition.previousScore - condition.score} points, from ${condition.previousScore} to ${condition.score} (the alert is set at ${condition.threshold}).`,
        items: [],
      };
    case 'newErrors': {
      const more = condition.count - condition.examples.length;
      return {
        line: `${plural(condition.count, 'new error', 'new errors')} since the previous report:`,
        items: [
          ...condition.examples.map((example) => `${example.ruleId} on ${example.url ?? 'the whole site'}`),
          ...(more > 0 ? [`and ${more} more`] : []),
        ],
      };
    }
  }
}

function facts(event: AlertEvent): [string, string][] {
  const rows: [string, string][] = [['Site', event.project.siteUrl]];
  if (event.crawl) rows.push(['Crawl', `${event.crawl.status}, ${event.crawl.url} (${event.crawl.id})`]);
  if (event.report) {
    const { report } = event;
    const score = report.score === null ? 'no score' : `score ${report.score}${report.grade ? ` (${report.grade})` : ''}`;
    rows.push([
      'Report',
      `${score}, ${plural(report.pages, 'page', 'pages')}, ${plural(report.errors, 'error', 'errors')}, ${plural(report.warnings, 'warning', 'warnings')}, ${plural(report.notices, 'notice', 'notices')}${report.completeness === 'partial' ? ', partial' : ''} (${report.id})`,
    ]);
  }
  if (event.previousReport) rows.push(['Previous report', `score ${event.previousReport.score ?? 'none'} (${event.previousReport.id})`]);
  return rows;
}

/** The alert as an email: plain text, and HTML in which every value is escaped. */
export function alertEmail(event: AlertEvent): MailContent {
  const intro = event.test
    ? `This is a test alert for the project ${event.project.name}: this address receives its alerts.`
    : `Loupe alert for the project ${event.project.name}.`;
  const conditions = event.conditions.map(conditionLines);
  const rows = facts(event);
  const footer = `Sent because the alert settings of ${event.project.name} list this address. Delivery ${event.deliveryId}.`;

  const text = [
    intro,
    '',
    ...conditions.flatMap(({ line, items }) => [`- ${line}`, ...items.map((item) => `    - ${item}`)]),
    ...(conditions.length > 0 ? [''] : []),
    ...rows.map(([name, value]) => `${name}: ${value}`),
    '',
    footer,
    '',
  ].join('\n');

  const list = (items: string[]): SafeHtml | null =>
    items.length > 0 ? html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>` : null;
  const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${alertSubject(event)}</title></head>
<body style="font-family: system-ui, sans-serif; line-height: 1.5">
<p>${intro}</p>
${conditions.length > 0 ? html`<ul>${conditions.map(({ line, items }) => html`<li>${line}${list(items)}</li>`)}</ul>` : null}
<table>${rows.map(([name, value]) => html`<tr><th style="text-align: left; padding-right: 1em">${name}</th><td>${value}</td></tr>`)}</table>
<p style="color: #666">${footer}</p>
</body></html>
`;
  return { subject: alertSubject(event), text, html: body.markup };
}
