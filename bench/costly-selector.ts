/**
 * How a rule whose selector is exponential in the page's nesting (issue #22 point 3) weighs
 * on the server: a real Loupe server crawls a small site with one page of deeply nested
 * `div`s, then previews a pack holding that selector beside an ordinary rule, while this
 * process asks `/healthz` again and again until the preview answers. Run by hand:
 * `node_modules/.bin/node bench/costly-selector.ts` (Node 24).
 *
 *   BENCH_DEPTH     nested divs on the costly page (default 200)
 *   BENCH_SELECTOR  the costly selector (default `section div div div`: none of the page's
 *                   divs is in a section, so css-select tries every chain of three ancestors)
 *   BENCH_PREVIEWS  previews run one after the other (default 2: the first one starts the rule threads)
 *   BENCH_COSTLY_RULES  copies of the costly rule in the pack (default 1, at most 499 beside the
 *                   ordinary rule); each is stopped at its page budget, so many of them meet
 *                   the preview's deadline
 *   LOUPE_RULE_PAGE_BUDGET_MS, LOUPE_RULE_PREVIEW_BUDGET_MS, LOUPE_RULE_PREVIEW_DEADLINE_MS
 *                   the server's budgets, as for `loupe serve`
 *
 * The server runs as `npm start` runs it, in a process of its own (bench/loupe-server.ts), so a
 * `/healthz` that waits is a request the server could not answer, not one this client could not send.
 */
import { availableParallelism, cpus } from 'node:os';
import { nestedDivs, selectorRule } from '../packages/server/src/rule-packs/test-rules.ts';
import { htmlPage } from '../packages/server/src/testing/html-page.ts';
import { startTestSite } from '../packages/server/src/testing/test-site.ts';
import { cleanups, loadAverage, printTable, quantile, runBench, wholeNumberSetting } from './bench-kit.ts';
import { loupeApi, startLoupe } from './loupe-server.ts';

const DEPTH = wholeNumberSetting('BENCH_DEPTH', 200, 1, 10_000);
const SELECTOR = process.env.BENCH_SELECTOR || 'section div div div';
const PREVIEWS = wholeNumberSetting('BENCH_PREVIEWS', 2, 1, 20);
const COSTLY_RULES = wholeNumberSetting('BENCH_COSTLY_RULES', 1, 1, 499);
const ORDINARY_PAGES = 5;

const costlyRules = Array.from({ length: COSTLY_RULES }, (_, index) =>
  selectorRule(index === 0 ? 'content/costly-selector' : `content/costly-selector-${index + 1}`, SELECTOR),
);
const ordinaryRule = selectorRule('content/has-heading', 'h1');

const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main(): Promise<void> {
  console.log('Loupe costly selector benchmark: /healthz while a preview runs it');
  console.log(`date:      ${new Date().toISOString()}`);
  console.log(
    `node:      ${process.version}; cpus ${availableParallelism()} × ${cpus()[0]?.model.trim() ?? 'unknown'}; load average ${loadAverage()}`,
  );
  console.log(
    `page:      ${DEPTH} nested divs; selector \`${SELECTOR}\` in ${COSTLY_RULES} rule(s); ${ORDINARY_PAGES} ordinary pages beside it\n`,
  );

  const pages: Record<string, string> = {
    '/': htmlPage({ path: '/', links: ['/nested', ...Array.from({ length: ORDINARY_PAGES }, (_, i) => `/page-${i}`)] }),
    '/nested': htmlPage({ path: '/nested', body: nestedDivs(DEPTH), links: ['/'] }),
  };
  for (let i = 0; i < ORDINARY_PAGES; i++) pages[`/page-${i}`] = htmlPage({ path: `/page-${i}`, links: ['/'] });
  const site = await startTestSite({ pages }, { record: false });
  cleanups.push(() => site.close());
  // The budgets reach the server as they would `loupe serve`; startLoupe passes on no other LOUPE_* setting.
  const budgets = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('LOUPE_RULE_')) as [string, string][]);
  const server = await startLoupe({
    label: 'costly-selector',
    env: { LOUPE_CRAWL_ALLOW_PRIVATE: 'true', ...budgets },
    setUp: (workspaceId) => [['admin', 'set-plan', '--workspace', workspaceId, '--plan', 'pro', '--json']],
  });
  const post = (path: string, body: unknown) => loupeApi(server, 'POST', path, body);
  const healthz = async () => {
    const start = performance.now();
    const response = await fetch(`${server.url}/healthz`);
    await response.arrayBuffer();
    return performance.now() - start;
  };

  const project = await post('/api/v1/projects', { name: 'Nested', siteUrl: site.url('/'), crawlDefaults: { sitemaps: false } });
  const crawl = await post(`/api/v1/projects/${project.id}/crawls`, { maxPages: 20 });
  await (
    await fetch(`${server.url}/api/v1/crawls/${crawl.id}/events`, {
      headers: { authorization: `Bearer ${server.key}`, 'x-service-team': server.workspaceId },
    })
  ).text();

  const idle: number[] = [];
  for (let i = 0; i < 20; i++) idle.push(await healthz());
  console.log(`/healthz with nothing else running: median ${ms(quantile(idle, 0.5))}, max ${ms(Math.max(...idle))}\n`);

  const rows: string[][] = [];
  for (let round = 1; round <= PREVIEWS; round++) {
    const started = performance.now();
    let answered = false;
    const preview = post('/api/v1/rule-packs/preview', {
      projectId: project.id,
      pack: { schema: 'loupe.rules/v1', name: 'costly', rules: [...costlyRules, ordinaryRule] },
    }).finally(() => {
      answered = true;
    });
    const latencies: number[] = [];
    while (!answered) latencies.push(await healthz());
    const answer = await preview;
    const previewMs = performance.now() - started;
    const costly = (answer.rules as any[]).slice(0, COSTLY_RULES);
    const ordinary = (answer.rules as any[]).at(-1);
    const [first] = costly;
    const stopped = first.error
      ? `${first.error.code} (${first.error.budget}, ${first.error.budgetMs} ms) on ${new URL(first.error.url).pathname}`
      : 'not stopped';
    const byBudget = Map.groupBy(costly, (rule) => rule.error?.budget ?? 'not stopped');
    const kinds =
      COSTLY_RULES === 1 ? '' : `; of ${COSTLY_RULES}: ${[...byBudget].map(([budget, rules]) => `${rules.length} ${budget}`).join(', ')}`;
    const ordinaryStopped = ordinary.error ? `; ${ordinary.error.code} (${ordinary.error.budget})` : '';
    rows.push([
      String(round),
      ms(previewMs),
      String(latencies.length),
      ms(quantile(latencies, 0.5)),
      ms(Math.max(...latencies)),
      `${stopped}; in scope ${first.pagesInScope}${kinds}`,
      `in scope ${ordinary.pagesInScope}, failing ${ordinary.pagesFailing}${ordinaryStopped}`,
    ]);
  }
  printTable(['preview', 'answered in', '/healthz asked', 'median', 'max', 'costly rule', 'ordinary rule'], rows);
}

await runBench(main);
