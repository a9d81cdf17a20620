import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Insertable } from 'kysely';
import { urlKey } from '../crawl/frontier-store.ts';
import type { CrawlFindingTable, CrawlUrlTable } from '../database/schema.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { type DiffSide, DiffStore } from './diff-store.ts';

/** Enough pages that a plan re-reading one crawl per row of the other would not finish (170 s at this size, before). */
const PAGES = 20_000;
const RULES = [
  'content/thin',
  'descriptions/missing',
  'images/alt-missing',
  'links/broken-internal',
  'security/not-https',
  'titles/too-long',
];
const LIMIT = 100;

/** Which planted pages each crawl has and what is on them, so the expected answers can be counted here. */
const has = (side: 'old' | 'new', i: number) => (side === 'old' ? i % 20 !== 0 : i % 20 !== 1);
const status = (side: 'old' | 'new', i: number) => (side === 'new' && i % 100 === 5 ? 404 : side === 'new' && i % 100 === 9 ? null : 200);
const title = (side: 'old' | 'new', i: number) => (side === 'new' && i % 100 === 7 ? `Changed title ${i}` : `Title ${i}`);
const fires = (side: 'old' | 'new', i: number, rule: number) => (i + rule + (side === 'new' && i % 10 === 3 ? 1 : 0)) % 3 === 0;

// The site moved from http://example.com to https://www.example.com: pages pair up by path.
const old: DiffSide = { crawlId: '00000000-0000-7000-8000-00000000000a', origin: 'http://example.com' };
const now: DiffSide = { crawlId: '00000000-0000-7000-8000-00000000000b', origin: 'https://www.example.com' };
const sides = { old, new: now };

async function seed(database: TestDatabase['database']): Promise<void> {
  const at = new Date().toISOString();
  const db = database.db;
  await db.insertInto('workspaces').values({ id: 'w', name: 'w', plan: 'free', created_at: at, updated_at: at }).execute();
  for (const name of ['old', 'new'] as const) {
    const side = sides[name];
    await db
      .insertInto('crawls')
      .values({
        id: side.crawlId,
        workspace_id: 'w',
        project_id: null,
        status: 'completed',
        url: `${side.origin}/`,
        mode: 'site',
        options: '{}',
        max_pages: PAGES,
        capped: 0,
        credits_reserved: 0,
        credits_charged: 0,
        report_id: null,
        error: null,
        created_at: at,
        started_at: at,
        finished_at: at,
        site_facts: null,
      })
      .execute();
    for (let start = 0; start < PAGES; start += 500) {
      const pages: Insertable<CrawlUrlTable>[] = [];
      const findings: Insertable<CrawlFindingTable>[] = [];
      for (let i = start; i < start + 500; i++) {
        if (!has(name, i)) continue;
        const url = `${side.origin}/p/${i}`;
        const id = `${name}-${i}`;
        const pageTitle = title(name, i);
        pages.push({
          id,
          crawl_id: side.crawlId,
          url,
          url_key: urlKey(url),
          depth: 1,
          state: 'done',
          kind: 'page',
          source: 'link',
          status_code: status(name, i),
          summary: JSON.stringify({ title: pageTitle }),
          title_hash: pageTitle.toLowerCase(),
        });
        RULES.forEach((rule, r) => {
          if (fires(name, i, r)) {
            findings.push({
              id: `${id}-${r}`,
              crawl_id: side.crawlId,
              url_id: id,
              rule_id: rule,
              severity: r < 2 ? 'warning' : 'error',
              count: 1,
              samples: '[]',
              detail: null,
              stage: 'page',
              share: null,
            });
          }
        });
      }
      await db.insertInto('crawl_urls').values(pages).execute();
      for (let f = 0; f < findings.length; f += 500)
        await db
          .insertInto('crawl_findings')
          .values(findings.slice(f, f + 500))
          .execute();
    }
  }
  // Not crawled, not a page: neither counts.
  await db
    .insertInto('crawl_urls')
    .values([
      {
        id: 'queued',
        crawl_id: now.crawlId,
        url: `${now.origin}/queued`,
        url_key: urlKey(`${now.origin}/queued`),
        depth: 9,
        state: 'queued',
        kind: 'page',
        source: 'link',
      },
      {
        id: 'asset',
        crawl_id: now.crawlId,
        url: `${now.origin}/a.png`,
        url_key: urlKey(`${now.origin}/a.png`),
        depth: 1,
        state: 'done',
        kind: 'asset',
        source: 'image',
      },
    ])
    .execute();
}

const indices = (test: (i: number) => boolean) => Array.from({ length: PAGES }, (_, i) => i).filter(test);
const urls = (side: DiffSide, list: number[]) => list.map((i) => `${side.origin}/p/${i}`).sort();

for (const dialect of testDialects()) {
  describe(`diff store over ${PAGES} pages a crawl (${dialect})`, () => {
    let t: TestDatabase;
    let store: DiffStore;
    before(async () => {
      t = await openTestDatabase(dialect);
      await seed(t.database);
      store = new DiffStore(t.database);
    });
    after(() => t?.close());

    it('counts the crawled pages of each side', async () => {
      assert.equal(await store.pageCount(old), indices((i) => has('old', i)).length);
      assert.equal(await store.pageCount(now), indices((i) => has('new', i)).length);
    });

    it('finds the pages added and removed, matched by path across the move', async () => {
      const added = urls(
        now,
        indices((i) => has('new', i) && !has('old', i)),
      );
      const removed = urls(
        old,
        indices((i) => has('old', i) && !has('new', i)),
      );
      const urlsOf = async (list: Promise<{ total: number; rows: { url: string }[] }>) => {
        const { total, rows } = await list;
        return { total, rows: rows.map((row) => row.url) };
      };
      assert.deepEqual(await urlsOf(store.pagesOnlyIn(now, old, LIMIT)), { total: added.length, rows: added.slice(0, LIMIT) });
      assert.deepEqual(await urlsOf(store.pagesOnlyIn(old, now, LIMIT)), { total: removed.length, rows: removed.slice(0, LIMIT) });
      // Every added page answered 200 (the planted 404s and failures are on pages of both).
      assert.deepEqual(await urlsOf(store.pagesOnlyIn(now, old, LIMIT, true)), { total: added.length, rows: added.slice(0, LIMIT) });
      assert.deepEqual(await store.pagesOnlyIn(now, old, LIMIT, false), { total: 0, rows: [] });
    });

    it('finds the pages gone: not crawled again, now 404, or without an answer', async () => {
      const gone = indices((i) => has('old', i) && (!has('new', i) || status('new', i) !== 200));
      const expected = urls(old, gone)
        .slice(0, LIMIT)
        .map((url) => {
          const i = Number(url.split('/').at(-1));
          return has('new', i)
            ? { url, state: 'done', status: status('new', i), fetchError: null }
            : { url, state: null, status: null, fetchError: null };
        });
      assert.deepEqual(await store.gonePages(old, now, LIMIT), { total: gone.length, rows: expected });
      // The other way, the queued page was never a page of the new crawl: nothing gone but the pages the old crawl lacks.
      const back = await store.gonePages(now, old, LIMIT);
      assert.equal(back.total, indices((i) => has('new', i) && !has('old', i) && status('new', i) === 200).length);
    });

    it('finds status changes, a failed fetch (null) included, with both statuses', async () => {
      const changed = indices((i) => has('old', i) && has('new', i) && status('old', i) !== status('new', i));
      const expected = urls(now, changed)
        .slice(0, LIMIT)
        .map((url) => {
          const i = Number(url.split('/').at(-1));
          return { url, before: status('old', i), after: status('new', i), beforeError: null, afterError: null };
        });
      assert.deepEqual(await store.statusChanges(old, now, LIMIT), { total: changed.length, rows: expected });
    });

    it('finds title changes with both summaries', async () => {
      const changed = indices((i) => has('old', i) && has('new', i) && title('old', i) !== title('new', i));
      const result = await store.titleChanges(old, now, LIMIT);
      assert.equal(result.total, changed.length);
      assert.deepEqual(
        result.rows,
        urls(now, changed)
          .slice(0, LIMIT)
          .map((url) => {
            const i = Number(url.split('/').at(-1));
            return {
              url,
              beforeSummary: JSON.stringify({ title: title('old', i) }),
              afterSummary: JSON.stringify({ title: title('new', i) }),
            };
          }),
      );
    });

    it('finds new and resolved issues by rule and page, each rule cut at the limit with its total', async () => {
      for (const [from, against, fromName, againstName] of [
        [now, old, 'new', 'old'],
        [old, now, 'old', 'new'],
      ] as const) {
        const rows = await store.issuesOnlyIn(from, against, LIMIT);
        const expected = RULES.flatMap((ruleId, r) => {
          const only = indices((i) => has(fromName, i) && fires(fromName, i, r) && !(has(againstName, i) && fires(againstName, i, r)));
          return urls(from, only)
            .slice(0, LIMIT)
            .map((url) => ({ ruleId, url, total: only.length, severityRank: r < 2 ? 1 : 2 }));
        });
        assert.deepEqual(rows, expected);
      }
    });

    it('splits the old findings not found again into resolved (the page answered again) and gone with their page', async () => {
      const there = (i: number) => has('new', i) && status('new', i) === 200;
      for (const pageThere of [true, false]) {
        const expected = RULES.flatMap((ruleId, r) => {
          const only = indices(
            (i) => has('old', i) && fires('old', i, r) && !(has('new', i) && fires('new', i, r)) && there(i) === pageThere,
          );
          return urls(old, only)
            .slice(0, LIMIT)
            .map((url) => ({ ruleId, url, total: only.length, severityRank: r < 2 ? 1 : 2 }));
        });
        assert.deepEqual(await store.issuesOnlyIn(old, now, LIMIT, pageThere), expected, `pageThere ${pageThere}`);
      }
    });

    it('says which gone pages the new crawl found and never fetched', async () => {
      // An old page at the path the new crawl left queued (it stopped first): gone, with that state.
      await t.database.db
        .insertInto('crawl_urls')
        .values({
          id: 'old-queued',
          crawl_id: old.crawlId,
          url: `${old.origin}/queued`,
          url_key: urlKey(`${old.origin}/queued`),
          depth: 1,
          state: 'done',
          kind: 'page',
          source: 'link',
          status_code: 200,
        })
        .execute();
      const gone = await store.gonePages(old, now, 100_000);
      assert.deepEqual(
        gone.rows.find((row) => row.url === `${old.origin}/queued`),
        { url: `${old.origin}/queued`, state: 'queued', status: null, fetchError: null },
      );
      await t.database.db.deleteFrom('crawl_urls').where('id', '=', 'old-queued').execute();
    });

    it('lists the site-level findings apart', async () => {
      await t.database.db
        .insertInto('crawl_findings')
        .values({
          id: 'site',
          crawl_id: now.crawlId,
          url_id: null,
          rule_id: 'robots/missing',
          severity: 'notice',
          count: 1,
          samples: '[]',
          detail: null,
          stage: 'site',
          share: 1,
        })
        .execute();
      assert.deepEqual(await store.siteFindings(now), [{ ruleId: 'robots/missing', severity: 'notice' }]);
      assert.deepEqual(await store.siteFindings(old), []);
    });
  });
}
