import { setImmediate } from 'node:timers/promises';
import { LoupeError, type RulePack, type RulePackPreview } from '@loupe/contract';
import { StoredPageStore } from '../crawl/stored-page-store.ts';
import type { Database } from '../database/database.ts';
import type { Principal } from '../identity/principal.ts';
import type { AuditProjectService } from '../projects/audit-project-service.ts';
import { ReportStore } from '../reports/report-store.ts';
import { compileRulePack } from './rule-pack-compiler.ts';
import { evaluateRule } from './rule-evaluator.ts';
import type { RulePackService } from './rule-pack-service.ts';
import { storedPageSubject } from './stored-page-subject.ts';

/** Pages evaluated between two yields to the event loop. */
const BATCH = 100;

/**
 * Runs a pack over the stored pages of a project's newest report: the same subjects and
 * evaluator as a crawl's report, nothing fetched, no credits spent. Disabled rules are
 * previewed too, so a rule can be tried before it is switched on.
 */
export class RulePackPreviewService {
  readonly #database: Database;
  readonly #projects: AuditProjectService;
  readonly #packs: RulePackService;

  constructor(database: Database, projects: AuditProjectService, packs: RulePackService) {
    this.#database = database;
    this.#projects = projects;
    this.#packs = packs;
  }

  async previewSaved(principal: Principal, packId: string, input: { projectId: string; samples: number }): Promise<RulePackPreview> {
    const stored = await this.#packs.get(principal, packId);
    return this.preview(principal, stored.pack, input, []);
  }

  async preview(principal: Principal, pack: RulePack, input: { projectId: string; samples: number }, prefix: string[] = ['pack']): Promise<RulePackPreview> {
    await this.#packs.requirePlan(principal);
    const enabled = pack.rules.map((rule) => rule.enabled);
    const compiled = compileRulePack({ ...pack, rules: pack.rules.map((rule) => ({ ...rule, enabled: true })) }, { prefix });
    const project = await this.#projects.get(principal, input.projectId);
    const report = project.latestReport && (await new ReportStore(this.#database).find(principal.workspaceId, project.latestReport.id));
    if (!report) throw new LoupeError('project_not_crawled', { message: 'The project has no report yet: crawl it, then preview the pack over its pages.' });

    const tallies = compiled.rules.map((rule, index) => ({
      ruleId: rule.definition.id,
      title: rule.definition.title,
      severity: rule.definition.severity,
      enabled: enabled[index] ?? true,
      pagesInScope: 0,
      pagesFailing: 0,
      pagesNotApplicable: 0,
      samples: [] as RulePackPreview['rules'][number]['samples'],
    }));
    let pagesEvaluated = 0;
    for await (const batch of new StoredPageStore(this.#database).each(report.crawl_id, { html: true, batch: BATCH })) {
      for (const page of batch) {
        pagesEvaluated += 1;
        const subject = storedPageSubject(page);
        compiled.rules.forEach((rule, index) => {
          const tally = tallies[index]!;
          // Only the pages named as samples need a message; the rest are counted.
          const result = evaluateRule(rule, subject, { explain: tally.samples.length < input.samples });
          if (result.outcome === 'out-of-scope') return;
          if (result.outcome === 'not-applicable') {
            tally.pagesNotApplicable += 1;
            return;
          }
          tally.pagesInScope += 1;
          if (result.outcome !== 'fired') return;
          tally.pagesFailing += 1;
          if (tally.samples.length < input.samples) tally.samples.push({ url: page.url, pageId: page.id, message: result.message ?? '' });
        });
      }
      // Evaluation is synchronous work: let the server answer others between batches.
      await setImmediate();
    }
    return { projectId: project.id, reportId: report.id, crawlId: report.crawl_id, pagesEvaluated, rules: tallies };
  }
}
