import type { Insertable } from 'kysely';
import type { CrawlFindingTable, CrawlUrlTable } from '../database/schema.ts';
import { instanceColumns } from './finding-instances.ts';
import { runPageRules } from './page-rules/index.ts';
import { summarizePage } from './page-summary.ts';
import type { AuditedPage } from './rule.ts';
import { ruleById } from './rule-catalog.ts';
import { noindexUnseenFinding } from './site-rules/noindex-unseen.ts';

/** What the audit keeps of one fetched page: its summary columns and its findings, as stored. */
export interface PageAudit {
  result: Partial<Insertable<CrawlUrlTable>>;
  findings: Omit<Insertable<CrawlFindingTable>, 'id' | 'crawl_id' | 'url_id' | 'stage'>[];
}

/**
 * The page checks, run while the page is in memory (the crawler's page handler): only their
 * findings and a summary stay, the facts are dropped.
 */
export function auditPage(page: AuditedPage): PageAudit {
  const summarized = page.facts ? summarizePage({ ...page, facts: page.facts }) : null;
  // The one site check decided here: it needs the crawl's robots.txt, known while the page is.
  const unseen = noindexUnseenFinding(page);
  const findings = unseen ? [...runPageRules(page), unseen] : runPageRules(page);
  return {
    result: {
      summary: summarized ? JSON.stringify(summarized.summary) : null,
      title_hash: summarized?.titleHash ?? null,
      description_hash: summarized?.descriptionHash ?? null,
      text_hash: summarized?.textHash ?? null,
      simhash: summarized?.simhash ?? null,
      lang: summarized?.lang ?? null,
      word_count: summarized?.summary.wordCount ?? null,
      indexable: summarized ? (summarized.indexable ? 1 : 0) : null,
    },
    findings: findings.map((finding) => ({
      rule_id: finding.ruleId,
      severity: finding.severity ?? ruleById(finding.ruleId).severity,
      count: finding.count,
      ...instanceColumns(finding),
      detail: finding.detail ?? null,
      share: null,
    })),
  };
}
