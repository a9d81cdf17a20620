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

/** Where a read starts: past the finding (url, id), or within it past `skip` of its instances. */
interface Start {
  url: string;
  id: string;
  skip?: number;
}

/** Findings read per step while filling a page: each gives at least one row, and may carry up to 1,000. */
const FINDINGS_PER_READ = 20;

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
    const rows: (InstanceRow & { place: [string, string] })[] = [];
    let from: Start | undefined = after ? { url: after.url, id: after.findingId, skip: after.position } : undefined;
    while (rows.length <= query.limit) {
      const findings = await this.#findings(crawlId, ruleId, query.pageId, from, FINDINGS_PER_READ);
      for (const finding of findings) {
        const instances = storedInstances(finding);
        const skip = from?.skip !== undefined && finding.id === from.id ? from.skip : 0;
        const listed: (string | null)[] = instances.length === 0 ? [null] : instances;
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
      const last = findings.at(-1);
      if (!last || findings.length < FINDINGS_PER_READ) break;
      // The next read starts past the last finding read: its rows are all in.
      from = { url: last.sort_url, id: last.id };
    }
    const more = rows.length > query.limit;
    const items = more ? rows.slice(0, query.limit) : rows;
    const last = items.at(-1);
    return {
      items: items.map(({ place: _place, ...row }) => row),
      nextCursor: more && last ? encodeInstanceCursor(last.place[0], last.place[1], last.position) : null,
    };
  }

  /** Findings of the rule from `from` on (the cursor's own finding included: some of its rows may be left). */
  #findings(crawlId: string, ruleId: string, pageId: string | undefined, from: Start | undefined, limit: number) {
    const sortUrl = sql<string>`coalesce(u.url, '')`;
    return this.#database.db
      .selectFrom('crawl_findings as f')
      .leftJoin('crawl_urls as u', (join) => join.onRef('u.id', '=', 'f.url_id').on('u.crawl_id', '=', crawlId))
      .select(['f.id', 'f.url_id', 'f.rule_id', 'f.severity', 'f.count', 'f.samples', 'f.more_instances', 'f.detail', 'u.url'])
      .select(sortUrl.as('sort_url'))
      .where('f.crawl_id', '=', crawlId)
      .where('f.rule_id', '=', ruleId)
      .$if(pageId !== undefined, (q) => q.where('f.url_id', '=', pageId as string))
      .$if(from !== undefined, (q) => {
        const { url, id, skip } = from as Start;
        return q.where(sql<boolean>`(${sortUrl}, f.id) ${sql.raw(skip === undefined ? '>' : '>=')} (${url}, ${id})`);
      })
      .orderBy(sortUrl)
      .orderBy('f.id')
      .limit(limit)
      .execute();
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
