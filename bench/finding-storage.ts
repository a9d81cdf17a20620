/**
 * What keeping every instance of a finding costs (issue #24, point 2): one crawl of the
 * PostgreSQL 15 manual, then the bytes of its findings. `node_modules/.bin/node bench/finding-storage.ts` (Node 24).
 *
 *   BENCH_SITE        pgdocs (default) or generated: the test harness's generated site, whose
 *                     pages all share some findings, to time listing an issue of many URLs
 *   BENCH_PAGES       pages of the generated site (default 20000)
 *   BENCH_PGDOCS_DIR  the manual, unpacked (default /tmp/pgdocs; made with
 *                     ../shared/testdata/sites/postgres-docs.sh)
 *
 * The server runs on SQLite with bench-resolver.ts preloaded, so the manual's links to other
 * hosts answer "no such host" without a lookup. Printed, over the stopped server's file: the
 * findings, those keeping instances past their three samples, the bytes of crawl_findings on
 * disk (SQLite's dbstat, table and indexes) per finding, and the bytes of more_instances. Without
 * the column a row is its payload and one header byte lighter, so "before" is the table's bytes
 * less those. Then the first page of listIssueInstances and the walk of every page of the issue
 * listing the most instances, timed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { generatedSite } from '../packages/server/src/testing/fixture-sites.ts';
import { startTestSite } from '../packages/server/src/testing/test-site.ts';
import { runBench } from './bench-kit.ts';
import { loupeApi, startLoupe } from './loupe-server.ts';
import { startStaticSite } from './static-site.ts';

const ROOT = join(import.meta.dirname, '..');
const PGDOCS = process.env.BENCH_PGDOCS_DIR || '/tmp/pgdocs';
const PAGES = Number(process.env.BENCH_PAGES ?? 20_000);

async function main(): Promise<void> {
  const generated = process.env.BENCH_SITE === 'generated';
  if (!generated && !existsSync(join(PGDOCS, 'index.html'))) {
    throw new Error(`${PGDOCS}/index.html is missing: bash ../shared/testdata/sites/postgres-docs.sh ${PGDOCS}`);
  }
  const site = generated ? await startTestSite(generatedSite(PAGES), { record: false }) : await startStaticSite(PGDOCS);
  const start = generated ? site.url('/') : site.url('/index.html');
  const loupe = await startLoupe({
    label: 'finding-storage',
    env: { LOUPE_CRAWL_ALLOW_PRIVATE: '1' },
    nodeFlags: ['--import', pathToFileURL(join(ROOT, 'bench/bench-resolver.ts')).href],
    setUp: (workspaceId) => [
      ['admin', 'set-plan', '--workspace', workspaceId, '--plan', 'business', '--json'],
      ['admin', 'grant-credits', '--workspace', workspaceId, '--amount', String(PAGES + 5000), '--note', 'bench:finding-storage', '--json'],
    ],
  });
  const started = (await loupeApi(loupe, 'POST', '/api/v1/crawls', { url: start, maxPages: (generated ? PAGES : 2000) + 10 })) as {
    id: string;
  };
  let crawl: { status: string; pagesCrawled: number; reportId: string | null; error: string | null };
  for (;;) {
    crawl = await loupeApi(loupe, 'GET', `/api/v1/crawls/${started.id}`);
    if (crawl.status !== 'queued' && crawl.status !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (!crawl.reportId) throw new Error(`the crawl ended ${crawl.status}: ${crawl.error}`);
  console.log(`crawl: ${crawl.pagesCrawled} pages, ${crawl.status}`);

  const report = (await loupeApi(loupe, 'GET', `/api/v1/reports/${crawl.reportId}`)) as {
    issues: { ruleId: string; instances: number; examples: { samples: string[] }[] }[];
  };
  // The issue with most instances among those that list theirs (links/too-many only counts).
  const largest = report.issues
    .filter((issue) => issue.examples.some((example) => example.samples.length > 0))
    .sort((a, b) => b.instances - a.instances)[0];
  if (largest) {
    const path = `/api/v1/reports/${crawl.reportId}/issues/${encodeURIComponent(largest.ruleId)}/instances?limit=100`;
    let start = performance.now();
    const first = await fetch(loupe.url + path, { headers: { authorization: `Bearer ${loupe.key}`, 'x-service-team': loupe.workspaceId } });
    await first.json();
    const firstMs = performance.now() - start;
    start = performance.now();
    let rows = 0;
    let pages = 0;
    for (let next: string | null = path; next !== null; pages++) {
      const answer: Response = await fetch(loupe.url + next, {
        headers: { authorization: `Bearer ${loupe.key}`, 'x-service-team': loupe.workspaceId },
      });
      rows += ((await answer.json()) as unknown[]).length;
      next = /<([^>]+)>; rel="next"/.exec(answer.headers.get('link') ?? '')?.[1] ?? null;
    }
    console.log(
      `listIssueInstances ${largest.ruleId} (${largest.instances} instances): first page ${ms(firstMs)}; ${rows} rows in ${pages} pages, ${ms(performance.now() - start)}`,
    );
  }

  await loupe.stop();
  await site.close();
  const db = new DatabaseSync(`${loupe.dataDir}/loupe.db`, { readOnly: true });
  const findings = db
    .prepare(
      'SELECT count(*) AS n, count(more_instances) AS more, coalesce(sum(length(more_instances)), 0) AS moreBytes, coalesce(max(length(more_instances)), 0) AS largest, coalesce(sum(length(samples)), 0) AS sampleBytes FROM crawl_findings',
    )
    .get() as { n: number; more: number; moreBytes: number; largest: number; sampleBytes: number };
  const sizes = db
    .prepare(
      "SELECT d.name, sum(d.pgsize) AS bytes FROM dbstat d JOIN sqlite_master m ON m.name = d.name WHERE m.tbl_name = 'crawl_findings' GROUP BY d.name",
    )
    .all() as { name: string; bytes: number }[];
  db.close();
  const total = sizes.reduce((sum, size) => sum + size.bytes, 0);
  const before = total - findings.moreBytes - findings.n;
  const per = (bytes: number) => `${(bytes / findings.n).toFixed(1)} B a finding`;
  console.log(
    `crawl_findings: ${findings.n} findings, ${findings.more} (${pct(findings.more / findings.n)}) keep instances past their samples`,
  );
  console.log(`  on disk, table and indexes: ${kb(total)} (${per(total)}); before more_instances about ${kb(before)} (${per(before)})`);
  console.log(
    `  more_instances: ${kb(findings.moreBytes)} (${per(findings.moreBytes)}), largest ${kb(findings.largest)}; samples ${kb(findings.sampleBytes)}`,
  );
  for (const size of sizes) console.log(`  ${size.name}: ${kb(size.bytes)}`);
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const kb = (bytes: number) => `${(bytes / 1e3).toFixed(1)} kB`;
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

await runBench(main);
