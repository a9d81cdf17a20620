import { setImmediate } from 'node:timers/promises';
import type { PageLab, Report } from '@loupe/contract';
import { instanceColumns } from '../audit/finding-instances.ts';
import { HealthAccumulator, pageScore, type RuleHit, type ScoredUrl, type Severity } from '../audit/health-score.ts';
import type { Finding } from '../audit/rule.ts';
import { RuleBook } from '../audit/rule-book.ts';
import { findRule } from '../audit/rule-catalog.ts';
import { conflictingCodesFinding, type HreflangReference } from '../audit/site-rules/conflicting-codes.ts';
import { type ChainEnd, type LinkTarget, linkTargetFindings } from '../audit/site-rules/link-target-rules.ts';
import { findNearDuplicates, type NearDuplicates } from '../audit/site-rules/near-duplicates.ts';
import { siteLevelFindings } from '../audit/site-rules/site-level-rules.ts';
import { type StoredPage, StoredPageStore } from '../audit/stored-page-store.ts';
import { now } from '../clock.ts';
import type { CrawlOptions } from '../crawl/crawl-options.ts';
import type { CrawlRow } from '../crawl/crawl-store.ts';
import { urlKey } from '../crawl/frontier-store.ts';
import type { SiteFacts } from '../crawl/site-facts.ts';
import type { Database } from '../database/database.ts';
import { newId } from '../ids.ts';
import { DEFAULT_RULE_BUDGETS } from '../rule-packs/rule-budgets.ts';
import { CustomRules, type ReportRuleBudgets } from './custom-rules.ts';
import { IssueTally } from './issue-tally.ts';
import { LabDistributionAccumulator } from './lab-distribution.ts';
import { type BuildPageRow, ReportBuildStore, type SuspectLinkRow } from './report-build-store.ts';
import { ReportStore } from './report-store.ts';

/** Pages read, checked and written back per step: memory stays bounded whatever the site's size. */
const BATCH = 500;
/** 401, 403, 429 and 999: the site refused us; half of the URLs answering so means the crawl was blocked. */
const ACCESS_DENIED = new Set([401, 403, 429, 999]);
const MAX_REDIRECT_HOPS = 10;
const DEEP_CLICKS = 4;

type ReportBody = Omit<Report, 'id' | 'crawlId' | 'projectId' | 'url' | 'mode' | 'completeness' | 'createdAt' | 'share'>;

/**
 * Builds a crawl's report once its pages are fetched: the site checks over the stored
 * pages and links, the custom rules of the crawl's rule packs over the stored markup, every
 * page's score, the health score with its attribution, and the report row. Runs in batches
 * of pages; run again (after a crash) it starts over and replaces what the previous run wrote.
 * Custom rules run on the rule threads, each within `budgets.pageMs` a page and `budgets.reportMs` in all.
 */
export async function buildReport(database: Database, crawl: CrawlRow, budgets: ReportRuleBudgets = DEFAULT_RULE_BUDGETS): Promise<string> {
  const store = new ReportBuildStore(database, crawl.id);
  const options = JSON.parse(crawl.options) as CrawlOptions;
  const custom = CustomRules.compile(options.rulePacks ?? [], (id) => findRule(id) !== undefined, budgets);
  const rules = new RuleBook(custom.definitions());
  const storedPages = new StoredPageStore(database);
  await store.clearSiteFindings();
  const origin = new URL(crawl.url).origin;
  const redirects = await redirectMap(store);
  const duplicates = {
    'titles/duplicate': await store.duplicateGroups('title_hash'),
    'descriptions/duplicate': await store.duplicateGroups('description_hash'),
    'content/duplicate': await store.duplicateGroups('text_hash'),
  } as const;

  // One count per URL of the crawl: a Map of about 60 bytes a page.
  const inlinks = await store.inlinks();
  const nearDuplicates = findNearDuplicates(await store.simhashedPages());
  const hreflangs = await store.hasHreflangs();
  const health = new HealthAccumulator();
  const issues = new IssueTally(rules);
  const pages = { crawled: 0, html: 0, failed: 0, redirects: 0, blockedByRobots: 0 };
  const lab = new LabDistributionAccumulator();
  let accessDenied = 0;

  for (let after: string | null = null; ; ) {
    const batch = await store.pages(after, BATCH);
    if (batch.length === 0) break;
    // The same window of pages, with their markup, for the custom rules.
    const bodies = custom.empty
      ? new Map<string, StoredPage>()
      : new Map(
          (
            await storedPages.pages(crawl.id, {
              after: after ?? undefined,
              limit: BATCH,
              html: true,
              renderedHtml: custom.readsRenderedDom,
            })
          ).map((page) => [page.id, page]),
        );
    after = batch.at(-1)!.id;
    // On a rule thread, while this thread reads what the site checks need (its failure surfaces when awaited).
    // With no custom rules `bodies` is empty: no page goes to a rule thread.
    const evaluated = custom.evaluate(
      batch.flatMap((row) => {
        const stored = bodies.get(row.id);
        return stored ? [{ ...stored, inlinks: inlinks.get(row.url_key) ?? 0 }] : [];
      }),
    );
    evaluated.catch(() => {});
    // node:sqlite answers synchronously: without this the whole build would run without
    // letting the server answer a request.
    await setImmediate();
    const stored = await store.pageFindings(batch.map((row) => row.id));
    const labs = options.render ? await store.pageLabs(batch.map((row) => row.id)) : new Map<string, PageLab>();
    const targets = await resolveTargets(store, batch, redirects, origin);
    const references = hreflangs ? await hreflangReferences(store, batch) : new Map<string, HreflangReference[]>();
    const found = new Map<string, Finding[]>(batch.map((row) => [row.id, []]));
    for (const finding of stored) {
      found.get(finding.url_id!)?.push({
        ruleId: finding.rule_id,
        severity: finding.severity as Severity,
        count: finding.count,
        samples: JSON.parse(finding.samples) as string[],
        ...(finding.detail === null ? {} : { detail: finding.detail }),
      });
    }

    const customFindings = await evaluated;
    const siteRows: Parameters<ReportBuildStore['insertSiteFindings']>[0] = [];
    const results: Parameters<ReportBuildStore['setPageResults']>[0] = [];
    for (const row of batch) {
      pages.crawled += 1;
      const inbound = inlinks.get(row.url_key) ?? 0;
      const siteFindings =
        row.summary === null
          ? []
          : [
              ...linkTargetFindings(targets.get(row.id) ?? []),
              ...duplicateFindings(row, duplicates),
              ...nearDuplicateFindings(row, nearDuplicates),
              ...structureFindings(row, inbound),
            ];
      const conflicting = row.summary === null ? null : conflictingCodesFinding(row.lang, references.get(row.id) ?? []);
      if (conflicting) siteFindings.push(conflicting);
      siteFindings.push(...(customFindings.get(row.id) ?? []));
      for (const finding of siteFindings) {
        siteRows.push({
          url_id: row.id,
          rule_id: finding.ruleId,
          severity: finding.severity ?? rules.get(finding.ruleId).severity,
          count: finding.count,
          ...instanceColumns(finding),
          detail: finding.detail ?? null,
          share: null,
        });
      }
      const all = [...(found.get(row.id) ?? []), ...siteFindings];
      const hits: RuleHit[] = all.map((finding) => hitOf(finding, rules));
      const kind = classify(row);
      if (kind === 'redirect') pages.redirects += 1;
      if (kind === 'blocked') pages.blockedByRobots += 1;
      if (kind === 'denied') accessDenied += 1;
      let score: number | null = null;
      if (kind === 'html' || kind === 'failed') {
        const scored: ScoredUrl = { url: row.url, rules: hits, ...(kind === 'failed' ? { failedRule: failedRule(row) } : {}) };
        health.add(scored);
        score = Math.round(pageScore(scored) * 10) / 10;
        if (kind === 'html') pages.html += 1;
        else pages.failed += 1;
      }
      const counts = { errors: 0, warnings: 0, notices: 0 };
      for (const hit of hits) counts[`${hit.severity}s` as const] += 1;
      all.forEach((finding, index) => issues.add(finding, (hits[index] as RuleHit).severity, row));
      const reading = labs.get(row.id);
      if (reading) lab.add(reading);
      const metrics = reading?.metrics;
      results.push({
        id: row.id,
        score,
        inlinks: inbound,
        ...counts,
        lcpMs: metrics?.lcpMs ?? null,
        cls: metrics?.cls ?? null,
        tbtMs: metrics?.tbtMs ?? null,
      });
    }
    await store.insertSiteFindings(siteRows);
    await store.setPageResults(results);
  }

  const facts = crawl.site_facts ? (JSON.parse(crawl.site_facts) as SiteFacts) : null;
  const site = facts ? siteLevelFindings(facts, await store.sitemapCoverage()) : [];
  await store.insertSiteFindings(
    site.map((finding) => ({
      url_id: null,
      rule_id: finding.ruleId,
      severity: finding.severity ?? rules.get(finding.ruleId).severity,
      count: finding.count,
      ...instanceColumns(finding),
      detail: finding.detail,
      share: finding.share,
    })),
  );
  for (const finding of site) issues.addSite(finding, finding.severity ?? rules.get(finding.ruleId).severity);

  const fetched = pages.crawled - pages.blockedByRobots;
  const partial = crawl.status !== 'completed' && crawl.status !== 'running' ? true : await store.hasQueuedPages();
  const result = health.finish(
    {
      siteFindings: site.map((finding) => ({ ...hitOf(finding, rules), share: finding.share })),
      blocked: fetched > 0 && accessDenied / fetched >= 0.5,
    },
    { partial },
  );
  const body: ReportBody = {
    health: {
      score: result.score,
      grade: result.grade,
      colour: result.colour,
      exactScore: result.exactScore,
      unscoredReason: result.unscoredReason,
      scoredUrls: result.scoredUrls,
      errorFreeShare: result.errorFreeShare,
      margin: result.margin,
    },
    pages,
    linkChecks: await store.linkChecks(),
    ...issues.summarize(result),
    ruleErrors: custom.errors(),
    lab: options.render ? lab.finish() : null,
  };
  return new ReportStore(database).saveBuilt({
    id: newId(),
    workspace_id: crawl.workspace_id,
    crawl_id: crawl.id,
    project_id: crawl.project_id,
    url: crawl.url,
    mode: crawl.mode,
    completeness: partial ? 'partial' : 'complete',
    score: result.score,
    grade: result.grade,
    pages: pages.crawled,
    errors: body.counts.errors,
    warnings: body.counts.warnings,
    notices: body.counts.notices,
    body: JSON.stringify(body),
    share_token: null,
    shared_at: null,
    created_at: now(),
  });
}

function hitOf(finding: { ruleId: string; severity?: Severity }, rules: RuleBook): RuleHit {
  const rule = rules.get(finding.ruleId);
  return {
    ruleId: finding.ruleId,
    severity: finding.severity ?? rule.severity,
    ...(rule.weight === undefined ? {} : { weight: rule.weight }),
  };
}

type UrlClass = 'html' | 'failed' | 'redirect' | 'blocked' | 'denied' | 'other';

function classify(row: BuildPageRow): UrlClass {
  if (row.fetch_error === 'blocked-by-robots') return 'blocked';
  if (row.status_code !== null && ACCESS_DENIED.has(row.status_code)) return 'denied';
  if (row.status_code === null) return row.fetch_error ? 'failed' : 'other';
  if (row.status_code >= 400) return 'failed';
  if (row.status_code >= 300) return 'redirect';
  return row.summary !== null ? 'html' : 'other';
}

function failedRule(row: BuildPageRow): string {
  if (row.status_code === null) return 'status/fetch-failed';
  return row.status_code >= 500 ? 'status/server-error' : 'status/client-error';
}

type DuplicateGroups = Record<
  'titles/duplicate' | 'descriptions/duplicate' | 'content/duplicate',
  Map<string, { size: number; urls: string[] }>
>;

function duplicateFindings(row: BuildPageRow, groups: DuplicateGroups): Finding[] {
  if (row.indexable !== 1) return [];
  const findings: Finding[] = [];
  const check = (ruleId: keyof DuplicateGroups, key: string | null) => {
    const group = key === null ? undefined : groups[ruleId].get(key);
    if (!group) return;
    const others = group.urls.filter((url) => url !== row.url).slice(0, 3);
    findings.push({ ruleId, count: group.size - 1, samples: others, detail: `${group.size} pages share it` });
  };
  check('titles/duplicate', row.title_hash === null ? null : `${row.title_hash} ${row.lang ?? ''}`);
  check('descriptions/duplicate', row.description_hash === null ? null : `${row.description_hash} ${row.lang ?? ''}`);
  check('content/duplicate', row.text_hash);
  return findings;
}

function nearDuplicateFindings(row: BuildPageRow, found: Map<string, NearDuplicates>): Finding[] {
  const near = found.get(row.id);
  if (!near) return [];
  const detail = `${near.count} ${near.count === 1 ? 'page' : 'pages'} within ${near.closest} of 64 bits`;
  return [{ ruleId: 'content/near-duplicate', count: near.count, samples: near.urls, detail }];
}

function structureFindings(row: BuildPageRow, inlinks: number): Finding[] {
  const findings: Finding[] = [];
  if (row.source === 'sitemap' && row.depth > 0 && inlinks === 0 && row.indexable === 1) {
    findings.push({ ruleId: 'links/orphan', count: 1, samples: [], detail: 'listed in the sitemap, linked from no crawled page' });
  }
  // Depth counts clicks only for URLs reached by links; a sitemap URL's depth is not a click path.
  if (row.depth > DEEP_CLICKS && row.source !== 'sitemap') {
    findings.push({ ruleId: 'links/deep', count: 1, samples: [], detail: `${row.depth} clicks from the start URL` });
  }
  return findings;
}

/** Who gives each page of the batch which hreflang code, by page id. */
async function hreflangReferences(store: ReportBuildStore, batch: BuildPageRow[]): Promise<Map<string, HreflangReference[]>> {
  const idByKey = new Map(batch.map((row) => [row.url_key, row.id]));
  const references = new Map<string, HreflangReference[]>();
  for (const row of await store.hreflangReferences([...idByKey.keys()])) {
    const id = idByKey.get(row.target_key) as string;
    const list = references.get(id) ?? [];
    list.push({ from: row.source_url, code: row.code, self: row.source_id === id });
    references.set(id, list);
  }
  return references;
}

interface RedirectEntry {
  status: number | null;
  finalKey: string | null;
  finalUrl: string | null;
}

async function redirectMap(store: ReportBuildStore): Promise<Map<string, RedirectEntry>> {
  const map = new Map<string, RedirectEntry>();
  for (const row of await store.redirects()) {
    map.set(row.url_key, { status: row.status_code, finalUrl: row.final_url, finalKey: row.final_url ? urlKey(row.final_url) : null });
  }
  return map;
}

/** The suspect targets of each page in the batch, with redirect chains followed and hreflang returns known. */
async function resolveTargets(
  store: ReportBuildStore,
  batch: BuildPageRow[],
  redirects: Map<string, RedirectEntry>,
  origin: string,
): Promise<Map<string, LinkTarget[]>> {
  const rows = (await store.suspectLinks(batch.map((row) => row.id))).filter((row) => row.state === 'done');
  const chains = new Map<string, { hops: number; loop: boolean; endKey: string | null; endUrl: string | null }>();
  for (const row of rows) {
    if (row.target_kind !== 'page' || !redirects.has(row.url_key) || chains.has(row.url_key)) continue;
    chains.set(row.url_key, followChain(row.url_key, redirects));
  }
  const endKeys = [...new Set([...chains.values()].map((chain) => chain.endKey).filter((key): key is string => key !== null))];
  const ends = new Map<string, ChainEnd>();
  for (let start = 0; start < endKeys.length; start += 500) {
    for (const end of await store.terminals(endKeys.slice(start, start + 500))) {
      ends.set(end.url_key, {
        url: end.url,
        status: end.status_code,
        fetchError: end.fetch_error,
        indexable: end.indexable === null ? null : end.indexable === 1,
      });
    }
  }
  const hreflangRows = rows.filter((row) => row.kind === 'hreflang');
  const returns = await store.hreflangReturns(
    [...new Set(hreflangRows.map((row) => row.target_id))],
    batch.map((row) => row.url_key),
  );
  const keyOf = new Map(batch.map((row) => [row.id, row.url_key]));

  const targets = new Map<string, LinkTarget[]>();
  for (const row of rows) {
    const chain = chains.get(row.url_key);
    const target: LinkTarget = {
      kind: row.kind as LinkTarget['kind'],
      url: row.url,
      targetKind: row.target_kind as LinkTarget['targetKind'],
      internal: isInternal(row, origin),
      status: row.status_code,
      fetchError: row.fetch_error,
      bytes: row.bytes,
      indexable: row.indexable === null ? null : row.indexable === 1,
      redirect: chain ? { hops: chain.hops, loop: chain.loop, end: chain.endKey ? (ends.get(chain.endKey) ?? null) : null } : null,
      linksBack: row.kind === 'hreflang' ? returns.has(`${row.target_id} ${keyOf.get(row.source_id)}`) : null,
    };
    const list = targets.get(row.source_id);
    if (list) list.push(target);
    else targets.set(row.source_id, [target]);
  }
  return targets;
}

function isInternal(row: SuspectLinkRow, origin: string): boolean {
  return row.target_kind === 'page' || URL.parse(row.url)?.origin === origin;
}

/** Hops from a redirecting URL through the crawl's redirect rows, until a URL that does not redirect. */
function followChain(startKey: string, redirects: Map<string, RedirectEntry>) {
  const seen = new Set([startKey]);
  let key = startKey;
  let hops = 0;
  for (;;) {
    const entry = redirects.get(key);
    if (!entry) return { hops, loop: false, endKey: key, endUrl: null };
    hops += 1;
    if (entry.finalKey === null) return { hops, loop: false, endKey: null, endUrl: null };
    if (seen.has(entry.finalKey) || hops > MAX_REDIRECT_HOPS) return { hops, loop: true, endKey: null, endUrl: null };
    seen.add(entry.finalKey);
    key = entry.finalKey;
  }
}
