import assert from 'node:assert/strict';
import type { TestServer } from './test-server.ts';

export interface StreamedEvent {
  type: string;
  status?: string;
  pagesCrawled?: number;
  reportId?: string | null;
}

/** Reads a crawl's server-sent events until the stream ends (when the crawl does). */
export async function followCrawlEvents(
  t: TestServer,
  crawlId: string,
  options: { key?: string; team?: string } = {},
): Promise<StreamedEvent[]> {
  const response = await fetch(`${t.url}/api/v1/crawls/${crawlId}/events`, {
    headers: { authorization: `Bearer ${options.key ?? t.owner.key}`, 'x-service-team': options.team ?? t.owner.workspaceId },
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice('data: '.length)) as StreamedEvent);
}

/** Starts a crawl, waits for its end, and returns its report (the crawl must end with one). */
export async function crawlToReport(t: TestServer, body: Record<string, unknown>, options: { key?: string; team?: string } = {}) {
  const started = await t.request('POST', '/api/v1/crawls', { body, ...options });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  const events = await followCrawlEvents(t, started.body.id, options);
  const last = events.at(-1);
  assert.ok(last?.reportId, `the crawl ended without a report: ${JSON.stringify(last)}`);
  const report = await t.request('GET', `/api/v1/reports/${last.reportId}`, options);
  assert.equal(report.status, 200);
  return report.body;
}

/** A project of the site with the rule pack attached (saved first), crawled: its report. */
export async function crawlWithRulePack(
  t: TestServer,
  as: { key: string; team: string },
  input: { siteUrl: string; pack: { name: string; [field: string]: unknown } },
) {
  const packId = (await t.request('POST', '/api/v1/rule-packs', { ...as, body: { name: input.pack.name, pack: input.pack } })).body.id;
  const project = await t.request('POST', '/api/v1/projects', {
    ...as,
    body: { name: input.pack.name, siteUrl: input.siteUrl, crawlDefaults: { sitemaps: false }, rulePackIds: [packId] },
  });
  assert.equal(project.status, 201, JSON.stringify(project.body));
  const crawl = await t.request('POST', `/api/v1/projects/${project.body.id}/crawls`, { ...as, body: {} });
  const events = await followCrawlEvents(t, crawl.body.id, as);
  const reportId = events.at(-1)?.reportId;
  assert.ok(reportId, JSON.stringify(events.at(-1)));
  return (await t.request('GET', `/api/v1/reports/${reportId}`, as)).body;
}
