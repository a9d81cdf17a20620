import type { Report } from '@loupe/contract';
import type { HealthResult, Severity } from '../audit/health-score.ts';
import type { Finding } from '../audit/rule.ts';
import { RuleBook } from '../audit/rule-book.ts';
import type { SiteLevelFinding } from '../audit/site-rules/site-level-rules.ts';

const EXAMPLES_PER_ISSUE = 5;
const TOP_FIXES = 5;
const severityRank: Record<Severity, number> = { notice: 0, warning: 1, error: 2 };

interface RuleTally {
  severity: Severity;
  pages: number;
  instances: number;
  share: number | null;
  examples: Report['issues'][number]['examples'];
}

/** Findings gathered into issues by rule as the build streams pages: counts and a few examples each. */
export class IssueTally {
  readonly #rules = new Map<string, RuleTally>();
  readonly #counts = { errors: 0, warnings: 0, notices: 0 };
  readonly #rulesBook: RuleBook;

  constructor(rules: RuleBook = RuleBook.builtIn) {
    this.#rulesBook = rules;
  }

  add(finding: Finding, severity: Severity, page: { id: string; url: string }): void {
    const tally = this.#tally(finding.ruleId, severity);
    tally.pages += 1;
    tally.instances += finding.count;
    if (tally.examples.length < EXAMPLES_PER_ISSUE) {
      tally.examples.push({
        url: page.url,
        pageId: page.id,
        count: finding.count,
        samples: finding.samples,
        detail: finding.detail ?? null,
      });
    }
    this.#counts[`${severity}s`] += 1;
  }

  addSite(finding: SiteLevelFinding, severity: Severity): void {
    const tally = this.#tally(finding.ruleId, severity);
    tally.instances += finding.count;
    tally.share = finding.share;
    tally.examples.push({ url: finding.url, pageId: null, count: finding.count, samples: finding.samples, detail: finding.detail });
    this.#counts[`${severity}s`] += 1;
  }

  summarize(health: HealthResult): Pick<Report, 'counts' | 'categories' | 'issues' | 'topFixes'> {
    const lost = new Map(health.lostPoints.map((entry) => [entry.ruleId, entry.points]));
    const gains = new Map(health.gainIfFixed.map((entry) => [entry.ruleId, entry]));
    const issues: Report['issues'] = [...this.#rules].map(([ruleId, tally]) => {
      const rule = this.#rulesBook.get(ruleId);
      const gain = gains.get(ruleId);
      return {
        ruleId,
        category: rule.category,
        severity: tally.severity,
        scope: rule.scope,
        title: rule.title,
        explanation: rule.explanation,
        fix: rule.fix,
        pages: tally.pages,
        instances: tally.instances,
        share: tally.share,
        lostPoints: lost.get(ruleId) ?? 0,
        scoreWithout: gain?.scoreWithout ?? health.score,
        gain: gain?.gain ?? 0,
        examples: tally.examples,
      };
    });
    // lostPoints is the gain if fixed (health-score.ts), so this one order serves the issue
    // list, topFixes, the CLI's top issues and the dashboard's "fix first" alike.
    issues.sort(
      (a, b) =>
        (Math.abs(b.lostPoints - a.lostPoints) > 1e-9 ? b.lostPoints - a.lostPoints : 0) ||
        severityRank[b.severity] - severityRank[a.severity] ||
        b.pages - a.pages ||
        (a.ruleId < b.ruleId ? -1 : 1),
    );

    const categories = new Map<string, Report['categories'][number]>();
    for (const issue of issues) {
      const category = categories.get(issue.category) ?? { category: issue.category, errors: 0, warnings: 0, notices: 0, lostPoints: 0 };
      category[`${issue.severity}s`] += Math.max(issue.pages, issue.scope === 'site' && issue.pages === 0 ? 1 : 0);
      category.lostPoints += issue.lostPoints;
      categories.set(issue.category, category);
    }
    const topFixes = issues
      .filter((issue) => issue.gain > 1e-9)
      .slice(0, TOP_FIXES)
      .map(({ ruleId, title, scoreWithout, gain }) => ({ ruleId, title, scoreWithout: scoreWithout as number, gain }));
    return {
      counts: { ...this.#counts },
      categories: [...categories.values()].sort((a, b) => b.lostPoints - a.lostPoints || (a.category < b.category ? -1 : 1)),
      issues,
      topFixes,
    };
  }

  #tally(ruleId: string, severity: Severity): RuleTally {
    let tally = this.#rules.get(ruleId);
    if (!tally) {
      tally = { severity, pages: 0, instances: 0, share: null, examples: [] };
      this.#rules.set(ruleId, tally);
    }
    if (severityRank[severity] > severityRank[tally.severity]) tally.severity = severity;
    return tally;
  }
}
