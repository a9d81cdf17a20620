import type { CrawlDefaults, CrawlEstimate, CreateAuditProject, StartProjectCrawl, UpdateAuditProject } from '@loupe/contract';
import {
  type AuditProject,
  type Crawl,
  type CrawlStatus,
  LoupeError,
  labP75s,
  type Page,
  type ProjectTrend,
  parseOrThrow,
  type Report,
  type ReportSummary,
  StartCrawl,
} from '@loupe/contract';
import type { z } from 'zod';
import { now } from '../clock.ts';
import type { CrawlService } from '../crawl/crawl-service.ts';
import type { Database } from '../database/database.ts';
import { newId } from '../ids.ts';
import type { Principal } from '../principal.ts';
import { type AuditProjectRow, AuditProjectStore } from './audit-project-store.ts';

type Paging = { limit: number; cursor?: string };

/** The reports filed under a project, newest first (reports' store, handed in by the composition). */
export interface ProjectReports {
  list(workspaceId: string, filter: { projectId: string }, page: Paging): Promise<Page<ReportSummary>>;
}

/** What a project reaches of the folders built on it (rule packs, reports, search), handed in by the composition. */
export interface AuditProjectPorts {
  rulePacks: RulePackLookup;
  reports: ProjectReports;
  /** Stops this process's searches answering from a deleted project's index at once (kept answers included). */
  forgetIndex: (projectId: string) => void;
}

/** Which of these rule pack ids are not packs of the workspace (attaching them is a 404). */
export interface RulePackLookup {
  missing(workspaceId: string, ids: readonly string[]): Promise<string[]>;
}

export const projectNotFound = () => new LoupeError('not_found', { message: 'No such project in this workspace.' });

/** Audit projects (DESIGN.md §8): a site with crawl defaults and rule packs, its crawls, reports and score trend. */
export class AuditProjectService {
  readonly #store: AuditProjectStore;
  readonly #reports: ProjectReports;
  readonly #crawls: CrawlService;
  readonly #rulePacks: RulePackLookup;
  readonly #forgetIndex: (projectId: string) => void;

  constructor(database: Database, crawls: CrawlService, ports: AuditProjectPorts) {
    this.#store = new AuditProjectStore(database);
    this.#crawls = crawls;
    this.#rulePacks = ports.rulePacks;
    this.#reports = ports.reports;
    this.#forgetIndex = ports.forgetIndex;
  }

  /** The project row, or the 404 every project route answers for an unknown or foreign id. */
  async require(principal: Principal, projectId: string): Promise<AuditProjectRow> {
    const row = await this.#store.find(principal.workspaceId, projectId);
    if (!row) throw projectNotFound();
    return row;
  }

  async get(principal: Principal, projectId: string): Promise<AuditProject> {
    const project = await this.#store.get(principal.workspaceId, projectId);
    if (!project) throw projectNotFound();
    return project;
  }

  list(principal: Principal, page: Paging): Promise<Page<AuditProject>> {
    return this.#store.list(principal.workspaceId, page);
  }

  async create(principal: Principal, input: z.output<typeof CreateAuditProject>): Promise<AuditProject> {
    const rulePackIds = input.rulePackIds ?? [];
    await this.#checkRulePacks(principal, rulePackIds);
    const id = newId();
    const at = now();
    await this.#store.insert({
      id,
      workspace_id: principal.workspaceId,
      name: input.name,
      site_url: input.siteUrl,
      crawl_defaults: JSON.stringify(input.crawlDefaults ?? {}),
      rule_pack_ids: JSON.stringify(rulePackIds),
      created_at: at,
      updated_at: at,
    });
    return this.get(principal, id);
  }

  async update(principal: Principal, projectId: string, input: z.output<typeof UpdateAuditProject>): Promise<AuditProject> {
    await this.require(principal, projectId);
    if (input.rulePackIds) await this.#checkRulePacks(principal, input.rulePackIds);
    await this.#store.update(principal.workspaceId, projectId, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.siteUrl !== undefined && { site_url: input.siteUrl }),
      ...(input.crawlDefaults !== undefined && { crawl_defaults: JSON.stringify(input.crawlDefaults) }),
      ...(input.rulePackIds !== undefined && { rule_pack_ids: JSON.stringify(input.rulePackIds) }),
      updated_at: now(),
    });
    return this.get(principal, projectId);
  }

  async delete(principal: Principal, projectId: string): Promise<{ deleted: true }> {
    if (!(await this.#store.delete(principal.workspaceId, projectId))) throw projectNotFound();
    this.#forgetIndex(projectId);
    return { deleted: true };
  }

  /** A crawl with the project's defaults under what was sent; the same 402 and checks as any crawl. */
  async startCrawl(principal: Principal, projectId: string, overrides: z.output<typeof StartProjectCrawl>): Promise<Crawl> {
    const project = await this.require(principal, projectId);
    return this.#crawls.start(principal, projectCrawlRequest(project, overrides));
  }

  /** What startCrawl would reserve with the same overrides; starts nothing. */
  async estimateCrawl(principal: Principal, projectId: string, overrides: z.output<typeof StartProjectCrawl>): Promise<CrawlEstimate> {
    const project = await this.require(principal, projectId);
    return this.#crawls.estimate(principal.workspaceId, projectCrawlRequest(project, overrides));
  }

  async crawls(principal: Principal, projectId: string, status: CrawlStatus | undefined, page: Paging): Promise<Page<Crawl>> {
    await this.require(principal, projectId);
    return this.#store.crawls(projectId, status, page);
  }

  async reports(principal: Principal, projectId: string, page: Paging): Promise<Page<ReportSummary>> {
    await this.require(principal, projectId);
    return this.#reports.list(principal.workspaceId, { projectId }, page);
  }

  async trend(principal: Principal, projectId: string, query: { since?: string; points: number }): Promise<ProjectTrend> {
    await this.require(principal, projectId);
    const since = query.since === undefined ? undefined : new Date(query.since).toISOString();
    const rows = await this.#store.trend(projectId, since, query.points);
    return {
      projectId,
      points: rows.map((row) => ({
        reportId: row.id,
        crawlId: row.crawl_id,
        createdAt: row.created_at,
        completeness: row.completeness as 'complete' | 'partial',
        score: row.score,
        grade: row.grade as ProjectTrend['points'][number]['grade'],
        pages: row.pages,
        errors: row.errors,
        warnings: row.warnings,
        notices: row.notices,
        // The report's body is its contract shape (report-views.ts reads it so too).
        lab: labP75s((JSON.parse(row.body) as Partial<Pick<Report, 'lab'>>).lab ?? null),
      })),
    };
  }

  async #checkRulePacks(principal: Principal, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const missing = await this.#rulePacks.missing(principal.workspaceId, ids);
    if (missing.length > 0) {
      throw new LoupeError('not_found', {
        message: `No rule pack ${missing.join(', ')} in this workspace.`,
        extra: { missingRulePackIds: missing },
      });
    }
  }
}

/**
 * The crawl request of a project crawl: the sent fields over the project's defaults over the
 * server's defaults, validated again as a whole (a default and an override may be valid apart
 * and not together, e.g. mode "page" with a maxPages).
 */
export function projectCrawlRequest(project: AuditProjectRow, overrides: z.output<typeof StartProjectCrawl>): z.output<typeof StartCrawl> {
  const defaults = JSON.parse(project.crawl_defaults) as CrawlDefaults;
  return parseOrThrow(StartCrawl, { url: project.site_url, ...defaults, ...withoutUndefined(overrides), projectId: project.id });
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
