/**
 * Custom rule packs: how long compiling a pack and running it over a crawl's pages take, in
 * memory (no server, no database: `rule-preview.ts` measures the preview endpoint end to end).
 * Run by hand: `node_modules/.bin/node bench/rule-eval.ts` (Node 24).
 *
 *   BENCH_PAGES   generated HTML pages (default 300, each 30–60 KB)
 *   BENCH_ROUNDS  measured rounds after one warm-up (default 5); the median is reported
 *   BENCH_SEED    seed of the page generator (default 1)
 *
 * Pages and pack are those of `rule-bench-fixtures.ts` (the three example rules of
 * audit-checks.md §3.3 and 47 more of every kind); the metrics a crawl would measure are made
 * up here from the same seed. Each round evaluates every rule on fresh subject objects, so
 * every page's DOM is parsed again, as it would be in a crawl. Pages are built and their
 * visible text extracted before timing: a crawl has those from its own pass over the page.
 * Every page is evaluated twice per round: explaining firings (messages and evidence, as a
 * report build does) and deciding outcomes only (as a preview does past its samples). The run
 * fails if the two decide differently, and prints a hash of every explained result, so runs
 * before and after a change to the evaluator can be compared.
 *
 * Previews and report builds run the evaluator on the rule threads (rule-run.ts), each rule
 * timed against its budget: the last rows time the same pages through a RuleRun, as a report
 * build asks (every firing explained) and as a preview does (5 samples a rule), thread start
 * and the copy of the pages to the thread included; the thread is started before timing.
 */
import { createHash } from 'node:crypto';
import { parseDocument } from 'htmlparser2';
import { RulePack } from '../packages/contract/src/index.ts';
import { htmlSubject } from '../packages/server/src/rule-packs/html-subject.ts';
import { evaluateRule } from '../packages/server/src/rule-packs/rule-evaluator.ts';
import { compileRulePack } from '../packages/server/src/rule-packs/rule-pack-compiler.ts';
import { RuleRun } from '../packages/server/src/rule-packs/rule-run.ts';
import type { RuleSubject } from '../packages/server/src/rule-packs/rule-subject.ts';
import { mulberry32 } from '../packages/server/src/testing/seeded-random.ts';
import { loadAverage, printTable, quantile } from './bench-kit.ts';
import { type BenchPage, benchRulePack, generatePages, withOrigin } from './rule-bench-fixtures.ts';

const PAGES = Number(process.env.BENCH_PAGES ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SEED = Number(process.env.BENCH_SEED ?? 1);
const ORIGIN = 'https://shop.example.test';

/** A generated page with the metrics a crawl would have measured for it, made up from the seed. */
function subjectOf(page: BenchPage, random: () => number): RuleSubject {
  const html = withOrigin(page.html, ORIGIN);
  return htmlSubject({
    url: ORIGIN + page.path,
    html,
    status: page.status,
    headers: page.headers,
    indexable: !html.includes('content="noindex') && !page.headers['x-robots-tag'],
    metrics: {
      responseMs: Math.floor(random() * 1500),
      ttfbMs: Math.floor(random() * 800),
      bytes: html.length,
      depth: Math.floor(random() * 6),
      inlinks: Math.floor(random() * 40),
      linkCount: (html.match(/<a /g) ?? []).length,
    },
  });
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

const ms = (value: number) => value.toFixed(1);

const generationStart = performance.now();
const metricsRandom = mulberry32(SEED + 1);
const subjects = generatePages(PAGES, SEED).map((page) => subjectOf(page, metricsRandom));
const generationMs = performance.now() - generationStart;
const htmlBytes = subjects.reduce((sum, s) => sum + (s.html?.length ?? 0), 0);
const packInput = benchRulePack(SEED);
const pack = RulePack.parse(packInput);

/** How the evaluator is asked: as a report build (messages and evidence) or as a preview past its samples. */
const MODES = [
  { name: 'explained', title: 'evaluate every rule on every page, explaining firings (report build)', explain: true },
  { name: 'outcome only', title: 'evaluate every rule on every page, outcome only (preview)', explain: false },
] as const;

const compileTimes: number[] = [];
const parseTimes: number[] = [];
const evaluateTimes = MODES.map(() => [] as number[]);
const outcomes = MODES.map(() => ({}) as Record<string, number>);
const perRule = MODES.map(() => new Map<string, number>());
/** Each evaluation's outcome in the last round, per mode: the two must agree. */
const decided = MODES.map(() => [] as string[]);
/** What explaining answered in the last round (messages and evidence), hashed: to compare runs before and after a change. */
const explainedHash = createHash('sha256');
let compiled = compileRulePack(pack);

for (let round = 0; round <= ROUNDS; round++) {
  const compileStart = performance.now();
  for (let i = 0; i < 10; i++) compiled = compileRulePack(RulePack.parse(packInput));
  const compileMs = (performance.now() - compileStart) / 10;

  const parseStart = performance.now();
  for (const subject of subjects) parseDocument(subject.html ?? '');
  const parseMs = performance.now() - parseStart;

  MODES.forEach((mode, m) => {
    // Fresh subject objects: nothing derived in an earlier round or mode (DOM, lower-cased text) is reused.
    const fresh = subjects.map((subject) => ({ ...subject }));
    const last = round === ROUNDS;
    const evaluateStart = performance.now();
    for (const subject of fresh) {
      for (const rule of compiled.rules) {
        const ruleStart = last ? performance.now() : 0;
        const result = evaluateRule(rule, subject, { explain: mode.explain });
        if (last) {
          perRule[m]!.set(rule.definition.id, (perRule[m]!.get(rule.definition.id) ?? 0) + performance.now() - ruleStart);
          outcomes[m]![result.outcome] = (outcomes[m]![result.outcome] ?? 0) + 1;
          decided[m]!.push(result.outcome);
          if (mode.explain) explainedHash.update(`${JSON.stringify(result)}\n`);
        }
      }
    }
    if (round > 0) evaluateTimes[m]!.push(performance.now() - evaluateStart);
  });
  if (round === 0) continue; // warm-up
  compileTimes.push(compileMs);
  parseTimes.push(parseMs);
}

/** The same pages through the rule threads, as report builds (explain all) and previews (explain 5) run them. */
const THREADED = [
  { title: 'the same on a rule thread, explaining firings (report build)', explain: undefined },
  { title: 'the same on a rule thread, 5 samples a rule (preview)', explain: 5 },
] as const;
const threadedTimes = THREADED.map(() => [] as number[]);
let threadedFired = -1;
await new RuleRun(compiled.rules, { purpose: 'report', pageBudgetMs: 1000 }).evaluate(subjects.slice(0, 1));
for (let round = 0; round <= ROUNDS; round++) {
  for (const [t, mode] of THREADED.entries()) {
    const fresh = subjects.map((subject) => ({ ...subject }));
    const start = performance.now();
    const outcomes = await new RuleRun(compiled.rules, {
      purpose: mode.explain === undefined ? 'report' : 'preview',
      pageBudgetMs: 1000,
      explain: mode.explain,
    }).evaluate(fresh);
    if (round > 0) threadedTimes[t]!.push(performance.now() - start);
    if (t === 0) threadedFired = outcomes.reduce((sum, outcome) => sum + outcome.fired.length, 0);
  }
}

const evaluations = PAGES * compiled.rules.length;
console.log(
  `rule evaluation: ${compiled.rules.length} rules × ${PAGES} pages (${(htmlBytes / PAGES / 1024).toFixed(1)} KB of HTML on average, ${(htmlBytes / 1024 / 1024).toFixed(1)} MB in all)`,
);
console.log(`pages generated in ${ms(generationMs)} ms; median of ${ROUNDS} rounds after a warm-up; load average ${loadAverage()}\n`);
const rows: string[][] = [['compile the pack (parse + compile)', `${ms(median(compileTimes))} ms`, '', '', '']];
MODES.forEach((mode, m) => {
  const evaluateMs = median(evaluateTimes[m]!);
  rows.push([
    mode.title,
    `${ms(evaluateMs)} ms`,
    `${(evaluateMs / PAGES).toFixed(2)} ms`,
    `${((evaluateMs * 1000) / evaluations).toFixed(1)} µs`,
    `${Math.round((PAGES * 1000) / evaluateMs)}`,
  ]);
});
THREADED.forEach((mode, t) => {
  const evaluateMs = median(threadedTimes[t]!);
  rows.push([
    mode.title,
    `${ms(evaluateMs)} ms`,
    `${(evaluateMs / PAGES).toFixed(2)} ms`,
    `${((evaluateMs * 1000) / evaluations).toFixed(1)} µs`,
    `${Math.round((PAGES * 1000) / evaluateMs)}`,
  ]);
});
rows.push([
  '  of which: parsing each page once (htmlparser2, for reference)',
  `${ms(median(parseTimes))} ms`,
  `${(median(parseTimes) / PAGES).toFixed(2)} ms`,
  '',
  '',
]);
printTable(['measure', 'median', 'per page', 'per rule and page', 'pages/s, one core'], rows);

const agree = decided[0]!.every((outcome, i) => decided[1]![i] === outcome) && threadedFired === (outcomes[0]!.fired ?? 0);
console.log(
  `\noutcomes (last round): ${Object.entries(outcomes[0]!)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}; the same with and without explaining, and on the rule threads: ${agree ? 'yes' : 'NO'}`,
);
MODES.forEach((mode, m) => {
  const slowest = [...perRule[m]!.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
  console.log(`slowest rules, ${mode.name} (last round, total over all pages; the first rule to select on a page pays its parse):`);
  for (const [id, total] of slowest) console.log(`  ${id.padEnd(40)} ${ms(total)} ms`);
});
console.log(`hash of every explained result (outcome, message, evidence): ${explainedHash.digest('hex').slice(0, 16)}`);
if (!agree) process.exitCode = 1;
