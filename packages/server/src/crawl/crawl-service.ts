import { lookup } from 'node:dns/promises';
import { accessSync, constants } from 'node:fs';
import {
  type Crawl,
  type CrawlEstimate,
  type CrawlStatus,
  LoupeError,
  type Page,
  RENDERED_PAGE_CREDITS,
  type StartCrawl,
} from '@loupe/contract';
import type { z } from 'zod';
import { now } from '../clock.ts';
import { CreditService } from '../credits/credit-service.ts';
import { type Database, inTransaction } from '../database/database.ts';
import { WorkspaceStore } from '../identity/workspace-store.ts';
import { newId } from '../ids.ts';
import type { Infrastructure } from '../infrastructure.ts';
import { isPublicAddress } from '../outbound/address-guard.ts';
import type { Plans } from '../plans/plans.ts';
import type { Principal } from '../principal.ts';
import { crawlOptions } from './crawl-options.ts';
import type { CrawlProjects } from './crawl-projects.ts';
import { CrawlStore, toCrawl } from './crawl-store.ts';

const crawlNotFound = () => new LoupeError('not_found', { message: 'No such crawl.' });
const urlError = (message: string) =>
  new LoupeError('validation_failed', { message, details: { fieldErrors: { url: [message] }, formErrors: [] } });

export interface CrawlServiceOptions {
  database: Database;
  /** Whether this server has a browser for crawls that render. */
  canRender: () => boolean;
  plans: Plans;
  allowPrivate: boolean;
  /** Hands the crawl to a worker once its row and reservation are committed. */
  enqueue: (crawlId: string) => Promise<void>;
  projects: CrawlProjects;
}

/**
 * The pages a crawl may fetch, and so the credits it reserves (DESIGN.md §6): one for a page
 * audit, else maxPages, which defaults to and is clamped to the plan's cap; each page costs
 * RENDERED_PAGE_CREDITS when the crawl renders.
 */
function reservationFor(
  input: Pick<z.output<typeof StartCrawl>, 'mode' | 'maxPages' | 'render'>,
  cap: number,
): { maxPages: number; capped: boolean; creditsPerPage: number; credits: number } {
  const requested = input.mode === 'page' ? 1 : (input.maxPages ?? cap);
  const maxPages = Math.min(requested, cap);
  const creditsPerPage = input.render ? RENDERED_PAGE_CREDITS : 1;
  return { maxPages, capped: requested > cap, creditsPerPage, credits: maxPages * creditsPerPage };
}

/** Starting, listing and canceling crawls (DESIGN.md §6, §8); the crawling itself is the runner's. */
export class CrawlService {
  readonly #o: CrawlServiceOptions;
  readonly #crawls: CrawlStore;

  constructor(options: CrawlServiceOptions) {
    this.#o = options;
    this.#crawls = new CrawlStore(options.database);
  }

  /**
   * Clamps maxPages to the plan's cap, then in one transaction records the crawl and
   * reserves maxPages credits: when they are not there the answer is 402 and nothing is
   * kept, so concurrent starts can never overspend.
   */
  start(principal: Principal, input: z.output<typeof StartCrawl>): Promise<Crawl> {
    return this.startFor(principal.workspaceId, input);
  }

  /**
   * Starts a crawl in a workspace with nobody calling: a schedule's run. The same checks and 402
   * as start. With `unlessProjectBusy`, answers undefined and starts nothing when a crawl of the
   * project is queued or running, decided in the starting transaction: two schedules of one
   * project due at once, claimed by two processes, start one crawl.
   */
  async startFor(workspaceId: string, input: z.output<typeof StartCrawl>, options: { unlessProjectBusy: true }): Promise<Crawl | undefined>;
  async startFor(workspaceId: string, input: z.output<typeof StartCrawl>): Promise<Crawl>;
  async startFor(workspaceId: string, input: z.output<typeof StartCrawl>, guard?: { unlessProjectBusy: true }): Promise<Crawl | undefined> {
    const project = await this.#checkInput(workspaceId, input);
    const workspace = await new WorkspaceStore(this.#o.database).findWorkspace(workspaceId);
    if (!workspace) throw new LoupeError('not_found');
    // A workspace that lost custom packs with its plan keeps crawling, without them.
    const rulePacks = project && this.#o.plans.limits(workspace.plan).customRulePacks ? await project.rulePacks() : [];
    const { maxPages, capped, credits } = reservationFor(input, this.#o.plans.limits(workspace.plan).pagesPerCrawl);
    // An unmetered plan (self-hosted) reserves nothing, so it is never refused with 402.
    const reserved = this.#o.plans.metered(workspace.plan) ? credits : 0;
    const id = newId();
    const options = { ...crawlOptions(input, maxPages), ...(rulePacks.length > 0 && { rulePacks }) };

    const started = await inTransaction(this.#o.database, async (transaction) => {
      if (guard?.unlessProjectBusy && project && (await this.#o.projects.busy(transaction, project.id))) return false;
      await new CrawlStore(transaction).insert({
        id,
        workspace_id: workspaceId,
        project_id: input.projectId ?? null,
        status: 'queued',
        url: options.url,
        mode: options.mode,
        options: JSON.stringify(options),
        max_pages: maxPages,
        capped: capped ? 1 : 0,
        credits_reserved: reserved,
        created_at: now(),
      });
      if (reserved > 0) await new CreditService(transaction, this.#o.plans).reserve(workspaceId, reserved, id);
      return true;
    });
    if (!started) return undefined;
    await this.#o.enqueue(id);
    const row = await this.#crawls.find(workspaceId, id);
    if (!row) throw crawlNotFound();
    return toCrawl(row);
  }

  /** What starting `input` would reserve, and whether the balance covers it; starts nothing. */
  async estimate(workspaceId: string, input: z.output<typeof StartCrawl>): Promise<CrawlEstimate> {
    await this.#checkInput(workspaceId, input);
    const workspace = await new WorkspaceStore(this.#o.database).findWorkspace(workspaceId);
    if (!workspace) throw new LoupeError('not_found');
    const reservation = reservationFor(input, this.#o.plans.limits(workspace.plan).pagesPerCrawl);
    const balance = await new CreditService(this.#o.database, this.#o.plans).balance(workspaceId);
    return { ...reservation, balance, sufficient: !this.#o.plans.metered(workspace.plan) || balance >= reservation.credits };
  }

  /** What starting and estimating both refuse: a project not in the workspace, a target not public. Answers the project. */
  async #checkInput(workspaceId: string, input: z.output<typeof StartCrawl>) {
    const project = input.projectId === undefined ? undefined : await this.#o.projects.find(workspaceId, input.projectId);
    if (input.projectId !== undefined && !project) throw new LoupeError('not_found', { message: 'No such project in this workspace.' });
    if (input.render && !this.#o.canRender()) throw new LoupeError('rendering_unavailable');
    await this.#checkTarget(input.url);
    return project;
  }

  /** Refuses at once a target that resolves to a private address (the fetcher refuses it again at connect time). */
  async #checkTarget(url: string): Promise<void> {
    if (this.#o.allowPrivate) return;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    const addresses = await lookup(host, { all: true }).catch(() => {
      throw urlError(`The host ${host} does not resolve.`);
    });
    if (addresses.some((entry) => !isPublicAddress(entry.address))) {
      throw urlError('This address is not public; Loupe does not crawl private or loopback addresses.');
    }
  }

  async get(principal: Principal, crawlId: string): Promise<Crawl> {
    const row = await this.#crawls.find(principal.workspaceId, crawlId);
    if (!row) throw crawlNotFound();
    return toCrawl(row);
  }

  list(principal: Principal, status: CrawlStatus | undefined, page: { limit: number; cursor?: string }): Promise<Page<Crawl>> {
    return this.#crawls.list(principal.workspaceId, status ? [status] : ['queued', 'running'], page);
  }

  /**
   * A queued crawl ends here, its whole reservation released; a running one is asked to
   * stop and its runner charges what was crawled. An ended crawl is left as it is.
   */
  async cancel(principal: Principal, crawlId: string): Promise<Crawl> {
    const row = await this.#crawls.find(principal.workspaceId, crawlId);
    if (!row) throw crawlNotFound();
    if (row.status === 'queued') {
      await inTransaction(this.#o.database, async (transaction) => {
        const moved = await new CrawlStore(transaction).transition(row.id, ['queued'], 'canceled', {
          finished_at: now(),
          credits_charged: 0,
        });
        if (moved) await new CreditService(transaction, this.#o.plans).settle(row.workspace_id, row.id, row.credits_reserved, 0);
      });
    }
    await this.#crawls.requestCancel(row.id);
    return this.get(principal, crawlId);
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The crawl service of a process (serve, worker): each crawl goes to the job queue as one job,
 * so a repeated send (a retried start) finds the job already there.
 */
export function crawlServiceFor(
  { config, database, plans, jobs }: Pick<Infrastructure, 'config' | 'database' | 'plans' | 'jobs'>,
  projects: CrawlProjects,
): CrawlService {
  return new CrawlService({
    database,
    plans,
    projects,
    canRender: () => isExecutable(config.rendering.executablePath),
    allowPrivate: config.crawlAllowPrivate,
    enqueue: async (crawlId) => {
      await jobs.send('crawl.run', { crawlId }, { singletonKey: `crawl:${crawlId}` });
    },
  });
}
