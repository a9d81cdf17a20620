import { randomBytes } from 'node:crypto';
import {
  type Download,
  type IssueInstance,
  LoupeError,
  type Page,
  type PageLink,
  type Report,
  type ReportPage,
  type ReportPageDetail,
  type ReportSummary,
  type SharedReport,
} from '@loupe/contract';
import { now } from '../clock.ts';
import type { Database } from '../database/database.ts';
import type { Principal } from '../principal.ts';
import { IssueInstances } from './issue-instances.ts';
import { exportBrokenLinks } from './links-export.ts';
import { PageLinks, type ReportLinksQuery } from './page-links.ts';
import { exportReport } from './report-export.ts';
import { type PageListQuery, type ReportRow, ReportStore } from './report-store.ts';
import { reportRules, toIssueInstance, toReport, toReportPage, toReportPageDetail, toShare, toSharedReport } from './report-views.ts';

/** Reading, sharing, exporting and deleting reports, always within the caller's workspace. */
export class ReportService {
  readonly #store: ReportStore;
  readonly #links: PageLinks;
  readonly #instances: IssueInstances;
  readonly #publicUrl: string;

  /** `publicUrl` (LOUPE_PUBLIC_URL) starts the share links it answers. */
  constructor(database: Database, options: { publicUrl: string }) {
    this.#publicUrl = options.publicUrl;
    this.#store = new ReportStore(database);
    this.#links = new PageLinks(database);
    this.#instances = new IssueInstances(database);
  }

  list(principal: Principal, filter: { projectId?: string }, page: { limit: number; cursor?: string }): Promise<Page<ReportSummary>> {
    return this.#store.list(principal.workspaceId, filter, page);
  }

  async get(principal: Principal, reportId: string): Promise<Report> {
    return toReport(await this.#store.get(principal.workspaceId, reportId), this.#publicUrl);
  }

  async pages(principal: Principal, reportId: string, query: PageListQuery): Promise<Page<ReportPage>> {
    const report = await this.#store.get(principal.workspaceId, reportId);
    const page = await this.#store.pages(report.crawl_id, query);
    return { items: page.items.map(toReportPage), nextCursor: page.nextCursor };
  }

  async page(principal: Principal, reportId: string, pageId: string): Promise<ReportPageDetail> {
    const report = await this.#store.get(principal.workspaceId, reportId);
    const row = await this.#store.page(report.crawl_id, pageId);
    if (!row) throw new LoupeError('not_found', { message: 'No such page in this report.' });
    const findings = await this.#store.findingsOf(report.crawl_id, [row.id]);
    return toReportPageDetail(row, findings, reportRules(report), await this.#store.render(report.crawl_id, row.id));
  }

  async screenshot(principal: Principal, reportId: string, pageId: string): Promise<Download> {
    return this.#screenshotOf(await this.#store.get(principal.workspaceId, reportId), pageId);
  }

  /** A shared report's page screenshot: the same 404 for a revoked token as for an unknown one. */
  async sharedScreenshot(token: string, pageId: string): Promise<Download> {
    const report = await this.#store.byShareToken(token);
    if (!report) throw new LoupeError('not_found', { message: 'This link does not lead to a shared report (it may have been unshared).' });
    return this.#screenshotOf(report, pageId);
  }

  /** Looked up by the report's own crawl: a page id of another report finds nothing. */
  async #screenshotOf(report: ReportRow, pageId: string): Promise<Download> {
    const screenshot = await this.#store.screenshot(report.crawl_id, pageId);
    if (!screenshot) throw new LoupeError('not_found', { message: 'No screenshot of this page in this report.' });
    return { contentType: 'image/jpeg', filename: `${pageId}.jpg`, disposition: 'inline', body: bytesOf(screenshot) };
  }

  /** Every instance of one of the report's issues; a rule that did not fire is no issue of it (404). */
  async instances(
    principal: Principal,
    reportId: string,
    ruleId: string,
    query: { pageId?: string; limit: number; cursor?: string },
  ): Promise<Page<IssueInstance>> {
    const report = await this.#store.get(principal.workspaceId, reportId);
    const issue = toReport(report, this.#publicUrl).issues.find((candidate) => candidate.ruleId === ruleId);
    if (!issue) throw new LoupeError('not_found', { message: 'No such issue in this report: the rule found nothing on its pages.' });
    if (query.pageId !== undefined && !(await this.#store.page(report.crawl_id, query.pageId))) {
      throw new LoupeError('not_found', { message: 'No such page in this report.' });
    }
    const siteUrl = issue.examples.find((example) => example.pageId === null)?.url ?? report.url;
    const page = await this.#instances.list(report.crawl_id, ruleId, query);
    return { items: page.items.map((row) => toIssueInstance(row, siteUrl)), nextCursor: page.nextCursor };
  }

  async outlinks(
    principal: Principal,
    reportId: string,
    pageId: string,
    page: { limit: number; cursor?: string },
  ): Promise<Page<PageLink>> {
    const report = await this.#store.get(principal.workspaceId, reportId);
    return this.#links.outlinks(report.crawl_id, await this.#links.end(report.crawl_id, pageId), page);
  }

  async inlinks(principal: Principal, reportId: string, pageId: string, page: { limit: number; cursor?: string }): Promise<Page<PageLink>> {
    const report = await this.#store.get(principal.workspaceId, reportId);
    return this.#links.inlinks(report.crawl_id, await this.#links.end(report.crawl_id, pageId), page);
  }

  async links(principal: Principal, reportId: string, query: ReportLinksQuery): Promise<Page<PageLink>> {
    const report = await this.#store.get(principal.workspaceId, reportId);
    return this.#links.all(report.crawl_id, query);
  }

  async exportBrokenLinks(principal: Principal, reportId: string, format: 'csv' | 'json'): Promise<Download> {
    const report = await this.#store.get(principal.workspaceId, reportId);
    return exportBrokenLinks(this.#links, report.crawl_id, report.id, format);
  }

  /** Idempotent: a shared report keeps its token. */
  async share(principal: Principal, reportId: string) {
    const report = await this.#store.get(principal.workspaceId, reportId);
    if (report.share_token !== null) return toShare(report, this.#publicUrl);
    // 128 random bits: the token is the only thing standing between the report and the public.
    const token = randomBytes(16).toString('base64url');
    const at = now();
    await this.#store.setShare(report.id, token, at);
    return toShare({ ...report, share_token: token, shared_at: at }, this.#publicUrl);
  }

  async getShare(principal: Principal, reportId: string) {
    const report = await this.#store.get(principal.workspaceId, reportId);
    if (report.share_token === null) throw new LoupeError('not_found', { message: 'This report is not shared.' });
    return toShare(report, this.#publicUrl);
  }

  async unshare(principal: Principal, reportId: string): Promise<{ deleted: true }> {
    const report = await this.#store.get(principal.workspaceId, reportId);
    await this.#store.setShare(report.id, null, null);
    return { deleted: true };
  }

  async delete(principal: Principal, reportId: string): Promise<{ deleted: true }> {
    await this.#store.delete(await this.#store.get(principal.workspaceId, reportId));
    return { deleted: true };
  }

  async export(principal: Principal, reportId: string, format: 'csv' | 'json'): Promise<Download> {
    return exportReport(this.#store, await this.#store.get(principal.workspaceId, reportId), format, this.#publicUrl);
  }

  /** A share link's report; the same 404 whether the token never existed or was revoked. */
  async shared(token: string): Promise<SharedReport> {
    const report = await this.sharedOrNull(token);
    if (!report) throw new LoupeError('not_found', { message: 'This link does not lead to a shared report (it may have been unshared).' });
    return report;
  }

  /** A shared report with the pages of its examples that have a screenshot, for its public page. */
  async sharedPageOrNull(token: string): Promise<{ report: SharedReport; screenshots: Set<string> } | null> {
    const row = await this.#store.byShareToken(token);
    if (!row) return null;
    const report = toSharedReport(row);
    const examplePages = report.issues.flatMap((issue) => issue.examples.flatMap((example) => (example.pageId ? [example.pageId] : [])));
    return { report, screenshots: await this.#store.withScreenshots(row.crawl_id, [...new Set(examplePages)]) };
  }

  async sharedOrNull(token: string): Promise<SharedReport | null> {
    const report = await this.#store.byShareToken(token);
    return report ? toSharedReport(report) : null;
  }
}

async function* bytesOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
