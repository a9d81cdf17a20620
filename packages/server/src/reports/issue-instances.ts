import { LoupeError, type Page } from '@loupe/contract';
import { sql } from 'kysely';
import { storedInstances } from '../audit/finding-instances.ts';
import type { Database } from '../database/database.ts';

/** One instance of a stored finding, with the finding it belongs to. */
export interface InstanceRow {
  ruleId: string;
  pageId: string | null;
  /** Null for a finding about the whole site: the caller knows its URL from the report. */
  url: string | null;
  severity: string;
  instance: string | null;
  detail: string | null;
  position: number;
  count: number;
  kept: number;
}

/**
 * Every instance of one rule's findings in a crawl, in URL order, each finding's in the order
 * found. A finding that lists none still gives one row, so every URL it fired on is reachable.
 * The cursor is the last row's place: its URL, its finding and its position there.
 */
export class IssueInstances {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async list(crawlId: string, ruleId: string, query: { pageId?: string; limit: number; cursor?: string }): Promise<Page<InstanceRow>> {
    const after = decodeInstanceCursor(query.cursor);
    // Every finding gives a row at least, but the cursor's own may have none left: limit + 2
    // findings fill a page and tell whether another follows, in one read.
    const findings = await this.#findings(crawlId, ruleId, query.pageId, after, query.limit + 2);
    const rows: (InstanceRow & { place: [string, string] })[] = [];
    for (const finding of findings) {
      if (rows.length > query.limit) break;
      // The rest past the samples (up to 1,000 instances) is read only for a finding the page reaches.
      const instances = finding.has_more
        ? storedInstances({ samples: finding.samples, more_instances: await this.#moreInstances(finding.id) })
        : (JSON.parse(finding.samples) as string[]);
      const listed: (string | null)[] = instances.length === 0 ? [null] : instances;
      const skip = after && finding.id === after.findingId ? after.position : 0;
      for (let index = skip; index < listed.length && rows.length <= query.limit; index += 1) {
        rows.push({
          ruleId: finding.rule_id,
          pageId: finding.url_id,
          url: finding.url,
          severity: finding.severity,
          instance: listed[index] ?? null,
          detail: finding.detail,
          position: index + 1,
          count: finding.count,
          kept: instances.length,
          place: [finding.sort_url, finding.id],
        });
      }
    }
    const more = rows.length > query.limit;
    const items = more ? rows.slice(0, query.limit) : rows;
    const last = items.at(-1);
    return {
      items: items.map(({ place: _place, ...row }) => row),
      nextCursor: more && last ? encodeInstanceCursor(last.place[0], last.place[1], last.position) : null,
    };
  }

  /** The rule's findings from the cursor's on (its own included: some of its rows may be left), without their rest. */
  #findings(
    crawlId: string,
    ruleId: string,
    pageId: string | undefined,
    after: { url: string; findingId: string } | undefined,
    limit: number,
  ) {
    const sortUrl = sql<string>`coalesce(u.url, '')`;
    return this.#database.db
      .selectFrom('crawl_findings as f')
      .leftJoin('crawl_urls as u', (join) => join.onRef('u.id', '=', 'f.url_id').on('u.crawl_id', '=', crawlId))
      .select(['f.id', 'f.url_id', 'f.rule_id', 'f.severity', 'f.count', 'f.samples', 'f.detail', 'u.url'])
      .select([sortUrl.as('sort_url'), sql<boolean>`f.more_instances is not null`.as('has_more')])
      .where('f.crawl_id', '=', crawlId)
      .where('f.rule_id', '=', ruleId)
      .$if(pageId !== undefined, (q) => q.where('f.url_id', '=', pageId as string))
      .$if(after !== undefined, (q) => {
        const { url, findingId } = after as { url: string; findingId: string };
        return q.where(sql<boolean>`(${sortUrl}, f.id) >= (${url}, ${findingId})`);
      })
      .orderBy(sortUrl)
      .orderBy('f.id')
      .limit(limit)
      .execute();
  }

  async #moreInstances(findingId: string): Promise<string | null> {
    const row = await this.#database.db
      .selectFrom('crawl_findings')
      .select('more_instances')
      .where('id', '=', findingId)
      .executeTakeFirst();
    return row?.more_instances ?? null;
  }
}

function encodeInstanceCursor(url: string, findingId: string, position: number): string {
  return Buffer.from(JSON.stringify([url, findingId, position]), 'utf8').toString('base64url');
}

/** The cursor names the last row given: the next page starts after its position in its finding. */
function decodeInstanceCursor(cursor: string | undefined): { url: string; findingId: string; position: number } | undefined {
  if (cursor === undefined) return undefined;
  try {
    const [url, findingId, position] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof url === 'string' && typeof findingId === 'string' && Number.isSafeInteger(position) && (position as number) >= 1) {
      return { url, findingId, position: position as number };
    }
  } catch {
    // fall through to the validation error
  }
  throw new LoupeError('validation_failed', {
    details: { fieldErrors: { cursor: ['Not a cursor from a previous page of these instances.'] }, formErrors: [] },
  });
}
