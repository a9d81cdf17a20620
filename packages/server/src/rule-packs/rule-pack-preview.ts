import { LoupeError, type RulePack, type RulePackPreview } from '@loupe/contract';
import { StoredPageStore } from '../audit/stored-page-store.ts';
import type { AuditProjectService } from '../audit-projects/audit-project-service.ts';
import type { Database } from '../database/database.ts';
import type { Principal } from '../principal.ts';
import { compileUserPack } from './compile-user-pack.ts';
import type { CompiledRule } from './compiled-rule.ts';
import { PreviewGate } from './preview-gate.ts';
import type { RuleBudgets } from './rule-budgets.ts';
import type { RulePackService } from './rule-pack-service.ts';
import { RuleRun } from './rule-run.ts';
import { storedPageSubject } from './stored-page-subject.ts';

/** Pages read from the database at once, and so evaluated at once on a rule thread. */
const BATCH = 100;

/** The crawl whose pages a report of the workspace was built from (reports' store, handed in by the composition). */
export type CrawlOfReport = (workspaceId: string, reportId: string) => Promise<string | undefined>;

/** The report a preview runs over: the project's newest, and the crawl it was built from. */
interface PreviewedReport {
  id: string;
  crawlId: string;
}

/**
 * Runs a pack over the stored pages of a project's newest report: the same subjects and
 * evaluator as a crawl's report, nothing fetched, no credits spent. A `dom: "rendered"`
 * condition is decided on the pages whose rendered DOM that crawl kept (a rendering crawl),
 * and unknown on the others, as in the report. Disabled rules are
 * previewed too, so a rule can be tried before it is switched on. Rules run on the rule
 * threads within their budgets (rule-budgets.ts); a rule stopped says so at the rule. A
 * preview ends at its deadline, and a workspace runs one at a time (PreviewGate).
 */
export class RulePackPreviewService {
  readonly #database: Database;
  readonly #projects: AuditProjectService;
  readonly #packs: RulePackService;
  readonly #budgets: RuleBudgets;
  readonly #crawlOfReport: CrawlOfReport;
  readonly #gate = new PreviewGate();

  constructor(
    database: Database,
    projects: AuditProjectService,
    packs: RulePackService,
    budgets: RuleBudgets,
    crawlOfReport: CrawlOfReport,
  ) {
    this.#database = database;
    this.#crawlOfReport = crawlOfReport;
    this.#projects = projects;
    this.#packs = packs;
    this.#budgets = budgets;
  }

  async previewSaved(principal: Principal, packId: string, input: { projectId: string; samples: number }): Promise<RulePackPreview> {
    const stored = await this.#packs.get(principal, packId);
    return this.preview(principal, stored.pack, input, []);
  }

  async preview(
    principal: Principal,
    pack: RulePack,
    input: { projectId: string; samples: number },
    prefix: string[] = ['pack'],
  ): Promise<RulePackPreview> {
    await this.#packs.requirePlan(principal);
    const enabled = pack.rules.map((rule) => rule.enabled);
    const compiled = compileUserPack({ ...pack, rules: pack.rules.map((rule) => ({ ...rule, enabled: true })) }, { prefix });
    const project = await this.#projects.get(principal, input.projectId);
    const crawlId = project.latestReport ? await this.#crawlOfReport(principal.workspaceId, project.latestReport.id) : undefined;
    if (!project.latestReport || crawlId === undefined)
      throw new LoupeError('project_not_crawled', {
        message: 'The project has no report yet: crawl it, then preview the pack over its pages.',
      });

    const gate = this.#gate.enter(principal.workspaceId, this.#budgets.previewDeadlineMs);
    try {
      return await this.#run(compiled.rules, enabled, { id: project.latestReport.id, crawlId }, project.id, input.samples);
    } finally {
      gate.release();
    }
  }

  async #run(
    rules: CompiledRule[],
    enabled: boolean[],
    report: PreviewedReport,
    projectId: string,
    samples: number,
  ): Promise<RulePackPreview> {
    const run = new RuleRun(rules, {
      purpose: 'preview',
      pageBudgetMs: this.#budgets.pageMs,
      runBudgetMs: this.#budgets.previewMs,
      deadlineMs: this.#budgets.previewDeadlineMs,
      explain: samples,
    });
    const tallies = rules.map((rule, index) => ({
      ruleId: rule.definition.id,
      title: rule.definition.title,
      severity: rule.definition.severity,
      enabled: enabled[index] ?? true,
      pagesInScope: 0,
      pagesFailing: 0,
      pagesNotApplicable: 0,
      samples: [] as RulePackPreview['rules'][number]['samples'],
      error: null as RulePackPreview['rules'][number]['error'],
    }));
    let pagesEvaluated = 0;
    const batches = new StoredPageStore(this.#database).each(report.crawlId, {
      html: true,
      renderedHtml: rules.some((rule) => rule.readsRenderedDom),
      batch: BATCH,
    });
    // Once every rule is stopped (at the deadline, say), the pages left are not read.
    for (let next = batches.next(); !run.done; ) {
      const { value: batch, done } = await next;
      if (done) break;
      // The next batch is read while a rule thread evaluates this one (its failure surfaces when awaited).
      next = batches.next();
      next.catch(() => {});
      pagesEvaluated += batch.length;
      // On the rule threads: only the pages named as samples get a message, the rest are counted.
      const outcomes = await run.evaluate(batch.map(storedPageSubject));
      outcomes.forEach((outcome, index) => {
        const tally = tallies[index]!;
        tally.pagesInScope += outcome.decided;
        tally.pagesNotApplicable += outcome.notApplicable;
        tally.pagesFailing += outcome.fired.length;
        for (const fired of outcome.fired) {
          if (fired.message === undefined || tally.samples.length >= samples) continue;
          const page = batch[fired.page]!;
          tally.samples.push({ url: page.url, pageId: page.id, message: fired.message });
        }
      });
    }
    run.errors().forEach((error, index) => {
      tallies[index]!.error = error;
    });
    return { projectId, reportId: report.id, crawlId: report.crawlId, pagesEvaluated, rules: tallies };
  }
}
