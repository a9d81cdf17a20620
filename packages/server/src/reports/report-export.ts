import type { Download } from '@loupe/contract';
import type { ReportRow, ReportStore } from './report-store.ts';
import { type RuleDescriber, reportRules, toPageFinding, toReport, toReportPage } from './report-views.ts';

const BATCH = 500;

/** The report as a file: CSV with one row per finding, or JSON with every page and its findings. Streamed in batches. */
export function exportReport(store: ReportStore, row: ReportRow, format: 'csv' | 'json'): Download {
  const name = `loupe-report-${row.id}`;
  return format === 'csv'
    ? { contentType: 'text/csv', filename: `${name}.csv`, body: csvLines(store, row) }
    : { contentType: 'application/json', filename: `${name}.json`, body: jsonChunks(store, row) };
}

const CSV_COLUMNS = ['url', 'status', 'rule_id', 'category', 'severity', 'title', 'count', 'detail', 'samples'];

async function* csvLines(store: ReportStore, row: ReportRow): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  const describe = reportRules(row);
  for (const finding of (await store.siteFindings(row.crawl_id)).map((stored) => toPageFinding(stored, describe))) {
    yield csvRow([
      '',
      '',
      finding.ruleId,
      finding.category,
      finding.severity,
      finding.title,
      finding.count,
      finding.detail,
      finding.samples.join(' | '),
    ]);
  }
  for await (const { page, findings } of pagesWithFindings(store, row, describe)) {
    for (const finding of findings) {
      yield csvRow([
        page.url,
        page.status ?? page.fetchError,
        finding.ruleId,
        finding.category,
        finding.severity,
        finding.title,
        finding.count,
        finding.detail,
        finding.samples.join(' | '),
      ]);
    }
  }
}

async function* jsonChunks(store: ReportStore, row: ReportRow): AsyncGenerator<string> {
  const describe = reportRules(row);
  const siteFindings = (await store.siteFindings(row.crawl_id)).map((stored) => toPageFinding(stored, describe));
  yield `{"report":${JSON.stringify(toReport(row))},"siteFindings":${JSON.stringify(siteFindings)},"pages":[`;
  let first = true;
  for await (const { page, findings } of pagesWithFindings(store, row, describe)) {
    yield `${first ? '' : ','}${JSON.stringify({ ...page, findings })}`;
    first = false;
  }
  yield ']}';
}

async function* pagesWithFindings(store: ReportStore, row: ReportRow, describe: RuleDescriber) {
  for (let cursor: string | undefined; ; ) {
    const batch = await store.pages(row.crawl_id, { sort: 'url', order: 'asc', limit: BATCH, cursor });
    const findings = await store.findingsOf(
      row.crawl_id,
      batch.items.map((page) => page.id),
    );
    const byPage = Map.groupBy(findings, (finding) => finding.url_id);
    for (const page of batch.items)
      yield { page: toReportPage(page), findings: (byPage.get(page.id) ?? []).map((stored) => toPageFinding(stored, describe)) };
    if (!batch.nextCursor) return;
    cursor = batch.nextCursor;
  }
}

/**
 * RFC 4180 quoting, and a leading apostrophe on text a spreadsheet would run as a formula
 * (crawled titles and URLs are third-party text: OWASP "CSV injection").
 */
export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map((value) => csvField(value)).join(',')}\r\n`;
}

function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
