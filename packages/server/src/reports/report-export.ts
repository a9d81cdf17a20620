import type { Download, ReportPageDetail } from '@loupe/contract';
import { storedInstances } from '../audit/finding-instances.ts';
import type { ReportRow, ReportStore } from './report-store.ts';
import { type RuleDescriber, reportRules, type StoredFinding, toPageFinding, toReport, toReportPage } from './report-views.ts';

const BATCH = 500;
/** Pages whose findings are read together. */
const FINDING_PAGES = 25;

/**
 * The report as a file: CSV with one row per instance of each finding, or JSON with every page
 * and its findings, each with its instances. Streamed in batches.
 */
export function exportReport(store: ReportStore, row: ReportRow, format: 'csv' | 'json', publicUrl: string): Download {
  const name = `loupe-report-${row.id}`;
  return format === 'csv'
    ? { contentType: 'text/csv', filename: `${name}.csv`, body: csvLines(store, row) }
    : { contentType: 'application/json', filename: `${name}.json`, body: jsonChunks(store, row, publicUrl) };
}

/** The page's lab metrics come last, so readers of the earlier columns keep their places. */
const CSV_COLUMNS = [
  'url',
  'status',
  'rule_id',
  'category',
  'severity',
  'title',
  'count',
  'detail',
  'position',
  'instance',
  'lcp_ms',
  'cls',
  'tbt_ms',
];
type LabColumns = [number | null, number | null, number | null];
const NO_LAB: LabColumns = [null, null, null];

async function* csvLines(store: ReportStore, row: ReportRow): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  const describe = reportRules(row);
  for (const stored of await store.siteFindings(row.crawl_id)) yield* findingRows(['', ''], exportedFinding(stored, describe), NO_LAB);
  for await (const { page, findings } of pagesWithFindings(store, row, describe)) {
    const lab: LabColumns = [page.lcpMs, page.cls, page.tbtMs];
    for (const finding of findings) yield* findingRows([page.url, page.status ?? page.fetchError], finding, lab);
  }
}

/** One row per instance the finding kept, with the finding's columns; one row without instance when it kept none. */
function* findingRows(where: [string, string | number | null], finding: ExportedFinding, lab: LabColumns): Generator<string> {
  const columns = [...where, finding.ruleId, finding.category, finding.severity, finding.title, finding.count, finding.detail];
  if (finding.instances.length === 0) yield csvRow([...columns, null, null, ...lab]);
  for (const [index, instance] of finding.instances.entries()) yield csvRow([...columns, index + 1, instance, ...lab]);
}

async function* jsonChunks(store: ReportStore, row: ReportRow, publicUrl: string): AsyncGenerator<string> {
  const describe = reportRules(row);
  const siteFindings = (await store.siteFindings(row.crawl_id)).map((stored) => exportedFinding(stored, describe));
  yield `{"report":${JSON.stringify(toReport(row, publicUrl))},"siteFindings":${JSON.stringify(siteFindings)},"pages":[`;
  let first = true;
  for await (const { page, findings } of pagesWithFindings(store, row, describe)) {
    yield `${first ? '' : ','}${JSON.stringify({ ...page, findings })}`;
    first = false;
  }
  yield ']}';
}

type ExportedFinding = ReportPageDetail['findings'][number] & { instances: string[] };

/** A finding as exported: as the page detail shows it, with every instance it kept. */
function exportedFinding(stored: StoredFinding, describe: RuleDescriber): ExportedFinding {
  return { ...toPageFinding(stored, describe), instances: storedInstances(stored) };
}

async function* pagesWithFindings(store: ReportStore, row: ReportRow, describe: RuleDescriber) {
  for (let cursor: string | undefined; ; ) {
    const batch = await store.pages(row.crawl_id, { sort: 'url', order: 'asc', limit: BATCH, cursor });
    // Findings carry up to 1,000 instances each: read for a few pages at a time, memory stays bounded.
    for (let start = 0; start < batch.items.length; start += FINDING_PAGES) {
      const pages = batch.items.slice(start, start + FINDING_PAGES);
      const findings = await store.findingsOf(
        row.crawl_id,
        pages.map((page) => page.id),
      );
      const byPage = Map.groupBy(findings, (finding) => finding.url_id);
      for (const page of pages)
        yield { page: toReportPage(page), findings: (byPage.get(page.id) ?? []).map((stored) => exportedFinding(stored, describe)) };
    }
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
