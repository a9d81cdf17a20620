import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generatedSite } from '../testing/fixture-sites.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { callError, callOk } from './test-tool-calls.ts';

for (const dialect of testDialects()) {
  describe(`MCP report summary and issues (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let client: Client;
    let reportId: string;
    /** The report as the REST API answers it. */
    let full: { issues: { ruleId: string; severity: string }[]; topFixes: unknown[]; health: unknown; counts: unknown };

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      // At 100 pages and more, the generated site has its deliberate defects: a dozen issues.
      site = await startTestSite(generatedSite(110, { wordsPerPage: 200 }), { record: false });
      client = new Client({ name: 'loupe-mcp-reports-test', version: '1.0.0' });
      const requestInit = { headers: { authorization: `Bearer ${t.owner.key}` } };
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.url), { requestInit }));
      const started = await callOk(client, 'start_crawl', { body: { url: site.url('/'), maxPages: 120 } });
      assert.equal((await callOk(client, 'stream_crawl_events', { crawlId: started.id, waitSeconds: 50 })).ended, true);
      reportId = (await callOk(client, 'get_crawl', { crawlId: started.id })).reportId;
      full = (await t.request('GET', `/api/v1/reports/${reportId}`)).body;
    });
    after(async () => {
      await client.close();
      await site.close();
      await t.close();
    });

    it('answers get_report as a summary: score, counts, top issues without examples, top fixes', async () => {
      const summary = await callOk(client, 'get_report', { reportId });
      assert.deepEqual([summary.health, summary.counts, summary.topFixes], [full.health, full.counts, full.topFixes]);
      assert.equal(summary.issueCount, full.issues.length);
      assert.ok(full.issues.length > 10, `the report has ${full.issues.length} issues`);
      assert.deepEqual(
        summary.topIssues.map((issue: { ruleId: string }) => issue.ruleId),
        full.issues.slice(0, 10).map((issue) => issue.ruleId),
      );
      for (const issue of summary.topIssues)
        assert.ok(!('examples' in issue) && !('explanation' in issue) && typeof issue.fix === 'string');
      assert.equal(summary.issues, undefined);
      assert.ok(JSON.stringify(summary).length < JSON.stringify(full).length / 2);
    });

    it('lists every issue in full, a page at a time, and filtered', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await callOk(client, 'list_report_issues', { reportId, limit: 4, ...(cursor ? { cursor } : {}) });
        assert.equal(page.total, full.issues.length);
        assert.ok(page.items.length <= 4);
        seen.push(...page.items.map((issue: { ruleId: string }) => issue.ruleId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      assert.deepEqual(
        seen,
        full.issues.map((issue) => issue.ruleId),
      );
      const [first] = full.issues;
      const one = await callOk(client, 'list_report_issues', { reportId, ruleId: first?.ruleId });
      assert.deepEqual(one.items, [first]);
      const errors = await callOk(client, 'list_report_issues', { reportId, severity: 'error', limit: 50 });
      assert.equal(errors.total, full.issues.filter((issue) => issue.severity === 'error').length);
      const none = await callOk(client, 'list_report_issues', { reportId, ruleId: 'no-such-rule' });
      assert.deepEqual([none.items, none.nextCursor, none.total], [[], null, 0]);
    });

    it('refuses bad paging arguments and answers an unknown report with not_found', async () => {
      for (const args of [
        { limit: 0 },
        { limit: 51 },
        { limit: '5' },
        { cursor: '-1' },
        { cursor: 'abc' },
        { severity: 'fatal' },
        { extra: 1 },
      ]) {
        const refused = await callError(client, 'list_report_issues', { reportId, ...args });
        assert.equal(refused.code, 'validation_failed', JSON.stringify(args));
      }
      assert.equal((await callError(client, 'get_report', { reportId: randomUUID() })).code, 'not_found');
      assert.equal((await callError(client, 'list_report_issues', { reportId: randomUUID() })).code, 'not_found');
    });
  });
}
