import type { AlertConditions, FiredCondition } from '@loupe/contract';

/** What is known when a crawl of a project ends, as the conditions read it. */
export interface CrawlEndFacts {
  crawl: { status: string; error: string | null };
  /** The crawl's report; none when the build failed or nothing was fetched. */
  report: { id: string; score: number | null } | null;
  /** The project's newest report with a score before this one. */
  previousScored: { id: string; score: number } | null;
  /** Error findings new since the project's previous report; null when there is none to compare with. */
  newErrors: { previousReportId: string; count: number; examples: { ruleId: string; url: string | null }[] } | null;
}

/**
 * Every condition of the settings that the crawl's end meets, in a fixed order. A score
 * condition needs a scored report (a crawl that reached no HTML page has none), and a
 * comparison needs an earlier report of the project: the first crawl never "drops".
 */
export function firedConditions(conditions: AlertConditions, facts: CrawlEndFacts): FiredCondition[] {
  const fired: FiredCondition[] = [];
  if (conditions.crawlFailed && facts.crawl.status === 'failed') {
    fired.push({ type: 'crawlFailed', error: facts.crawl.error });
  }
  const score = facts.report?.score ?? null;
  if (conditions.scoreBelow !== null && score !== null && score < conditions.scoreBelow) {
    fired.push({ type: 'scoreBelow', threshold: conditions.scoreBelow, score });
  }
  const previous = facts.previousScored;
  if (conditions.scoreDropBy !== null && score !== null && previous && previous.score - score >= conditions.scoreDropBy) {
    fired.push({
      type: 'scoreDropBy',
      threshold: conditions.scoreDropBy,
      score,
      previousScore: previous.score,
      previousReportId: previous.id,
    });
  }
  if (conditions.newErrors && facts.newErrors && facts.newErrors.count > 0) {
    fired.push({ type: 'newErrors', ...facts.newErrors });
  }
  return fired;
}
