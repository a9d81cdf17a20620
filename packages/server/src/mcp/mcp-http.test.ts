import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { operations } from '@loupe/contract';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generatedSite } from '../testing/fixture-sites.ts';
import { readTestImage } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { callError, callOk, callText } from './test-tool-calls.ts';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('MCP over Streamable HTTP at /mcp', () => {
  let t: TestServer;
  let site: TestSite;
  let hangingSite: TestSite;
  const clients: Client[] = [];

  async function connect(options: { key?: string; team?: string; path?: string } = {}): Promise<Client> {
    const headers: Record<string, string> = { authorization: `Bearer ${options.key ?? t.owner.key}` };
    headers['x-service-team'] = options.team ?? t.owner.workspaceId;
    const client = new Client({ name: 'loupe-mcp-test', version: '1.0.0' });
    const url = new URL(options.path ?? '/mcp?toolsets=all', t.url);
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  before(async () => {
    t = await startTestServer('sqlite', { crawlAllowPrivate: true });
    site = await startTestSite(generatedSite(6), { record: false });
    hangingSite = await startTestSite({
      pages: { '/': '<!doctype html><title>Home</title><a href="/slow">slow</a>', '/slow': { hang: 'before-headers' } },
    });
  });
  after(async () => {
    for (const client of clients) await client.close();
    await hangingSite.close();
    await site.close();
    await t.close();
  });

  it('lists one tool per registry operation with toolsets=all, and list_toolsets', async () => {
    const { tools } = await (await connect()).listTools();
    assert.equal(tools.filter((tool) => !['list_toolsets', 'list_report_issues', 'cdn_url'].includes(tool.name)).length, operations.length);
    assert.ok(tools.some((tool) => tool.name === 'start_project_crawl'));
  });

  it('lists the default toolsets with no query, and the ones named by ?toolsets=', async () => {
    const byDefault = (await (await connect({ path: '/mcp' })).listTools()).tools.map((tool) => tool.name);
    for (const name of ['list_workspaces', 'list_toolsets', 'upload_image', 'start_crawl', 'get_report'])
      assert.ok(byDefault.includes(name), name);
    for (const name of ['start_project_crawl', 'create_rule_pack', 'create_invite']) assert.ok(!byDefault.includes(name), name);
    const client = await connect({ path: '/mcp?toolsets=audits,%20Search' });
    const named = (await client.listTools()).tools.map((tool) => tool.name);
    assert.ok(named.includes('start_project_crawl') && named.includes('search_project') && named.includes('list_workspaces'));
    assert.ok(!named.includes('upload_image'));
    const { toolsets } = await callOk(client, 'list_toolsets');
    const listed = toolsets.filter((toolset: { listed: boolean }) => toolset.listed).map((toolset: { name: string }) => toolset.name);
    assert.deepEqual(listed, ['audits', 'search']);
    assert.ok(toolsets.find((toolset: { name: string }) => toolset.name === 'images').tools.includes('upload_image'));
    await assert.rejects(client.callTool({ name: 'upload_image', arguments: {} }), /list_toolsets/);
  });

  it('answers an unknown toolset with 400 and the error body naming the toolsets', async () => {
    for (const path of ['/mcp?toolsets=images,nope', '/mcp?toolsets=images&toolsets=nope']) {
      const response = await fetch(new URL(path, t.url), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${t.owner.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(initialize),
      });
      assert.equal(response.status, 400);
      const body = await response.json();
      assert.equal(body.code, 'validation_failed');
      assert.match(body.error, /nope.*images/);
    }
  });

  it('creates an image project and lists it, one page at a time', async () => {
    const client = await connect();
    const first = await callOk(client, 'create_image_project', { body: { name: 'MCP first' } });
    const second = await callOk(client, 'create_image_project', { body: { name: 'MCP second' } });
    assert.equal(first.name, 'MCP first');
    const page = await callOk(client, 'list_image_projects', { limit: 1 });
    assert.equal(page.items.length, 1);
    assert.equal(typeof page.nextCursor, 'string');
    const rest = await callOk(client, 'list_image_projects', { limit: 100, cursor: page.nextCursor });
    assert.equal(rest.nextCursor, null);
    const ids = [...page.items, ...rest.items].map((project: { id: string }) => project.id);
    assert.ok(ids.includes(first.id) && ids.includes(second.id));
  });

  it("answers an API refusal as a tool error carrying the API's error body", async () => {
    const client = await connect();
    const missing = await callError(client, 'get_image_project', { projectId: randomUUID() });
    assert.equal(missing.code, 'not_found');
    assert.equal(typeof missing.error, 'string');
    const invalid = await callError(client, 'create_image_project', { body: { name: '' } });
    assert.equal(invalid.code, 'validation_failed');
    assert.ok(invalid.details.fieldErrors.name);
  });

  it('refuses an unknown argument or a missing path parameter with a validation error', async () => {
    const client = await connect();
    const unknown = await callError(client, 'list_image_projects', { limt: 5 });
    assert.equal(unknown.code, 'validation_failed');
    assert.deepEqual(Object.keys(unknown.details.fieldErrors), ['limt']);
    const missing = await callError(client, 'get_image_project', {});
    assert.deepEqual(Object.keys(missing.details.fieldErrors), ['projectId']);
  });

  it('uploads an image sent as base64', async () => {
    const client = await connect();
    const project = await callOk(client, 'create_image_project', { body: { name: 'MCP uploads' } });
    const data = await readTestImage('no_time_for_that_tiny.gif');
    const image = await callOk(client, 'upload_image', {
      projectId: project.id,
      upload: { file: data.toString('base64'), filename: 'tiny.gif', contentType: 'image/gif', fields: { path: 'gifs/tiny.gif' } },
    });
    assert.equal(image.path, 'gifs/tiny.gif');
    assert.ok(image.width > 0 && image.height > 0);
    const both = await callError(client, 'upload_image', {
      projectId: project.id,
      body: { url: 'https://example.com/a.png' },
      upload: { file: data.toString('base64'), filename: 'tiny.gif' },
    });
    assert.equal(both.code, 'validation_failed');
  });

  it('starts a crawl, follows it to its end, and polls get_crawl for its report', async () => {
    const client = await connect();
    const started = await callOk(client, 'start_crawl', { body: { url: site.url('/'), maxPages: 4 }, maxCredits: 4 });
    assert.equal(started.status, 'queued');
    const followed = await callOk(client, 'stream_crawl_events', { crawlId: started.id, waitSeconds: 50 });
    assert.equal(followed.ended, true);
    assert.equal(followed.events.at(-1).status, 'completed');
    const crawl = await callOk(client, 'get_crawl', { crawlId: started.id });
    assert.deepEqual([crawl.status, crawl.pagesCrawled, crawl.creditsCharged], ['completed', 4, 4]);
    const report = await callOk(client, 'get_report', { reportId: crawl.reportId });
    assert.equal(typeof report.health.score, 'number');
    const csv = await callText(client, 'export_report', { reportId: crawl.reportId, format: 'csv' });
    assert.match(csv.split('\n')[0], /url/i);
  });

  it('answers the events received so far when the wait ends before the crawl', async () => {
    const client = await connect();
    const started = await callOk(client, 'start_crawl', { body: { url: hangingSite.url('/'), maxPages: 5, sitemaps: false } });
    await hangingSite.requests.waitFor('/slow');
    const followed = await callOk(client, 'stream_crawl_events', { crawlId: started.id, waitSeconds: 1 });
    assert.equal(followed.ended, false);
    assert.equal(followed.events[0].type, 'status');
    await callOk(client, 'cancel_crawl', { crawlId: started.id });
    const rest = await callOk(client, 'stream_crawl_events', { crawlId: started.id, waitSeconds: 50 });
    assert.deepEqual([rest.ended, rest.events.at(-1).status], [true, 'canceled']);
  });

  it('refuses, with the estimate, a crawl that could reserve more than maxCredits, and starts nothing', async () => {
    const client = await connect();
    const before = await callOk(client, 'get_credits');
    const refused = await callError(client, 'start_crawl', { body: { url: site.url('/') }, maxCredits: 10 });
    assert.deepEqual([refused.code, refused.estimate, refused.maxCredits], ['max_credits_exceeded', before.pagesPerCrawl, 10]);
    const project = await callOk(client, 'create_audit_project', {
      body: { name: 'Guarded', siteUrl: site.url('/'), crawlDefaults: { maxPages: 30 } },
    });
    const projectRefused = await callError(client, 'start_project_crawl', { projectId: project.id, body: {}, maxCredits: 20 });
    assert.deepEqual([projectRefused.code, projectRefused.estimate], ['max_credits_exceeded', 30]);
    const after = await callOk(client, 'get_credits');
    assert.deepEqual([after.balance, after.reserved], [before.balance, before.reserved]);
    assert.deepEqual((await callOk(client, 'list_project_crawls', { projectId: project.id })).items, []);
  });

  it("answers a workspace the key's user is not in with the API's 403 as a tool error", async () => {
    const other = await t.createWorkspace();
    const client = await connect({ team: other.workspaceId });
    const refused = await callError(client, 'list_crawls');
    assert.equal(refused.code, 'not_a_member');
  });

  it('answers 401 with WWW-Authenticate and the error body to a call without a valid key', async () => {
    for (const authorization of [undefined, 'Bearer loupe_not_a_real_key_at_all_000000']) {
      const response = await fetch(new URL('/mcp', t.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify(initialize),
      });
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer\b/);
      const body = await response.json();
      assert.equal(body.code, 'unauthorized');
      assert.equal(typeof body.error, 'string');
    }
  });

  it("answers a request whose params are not the method's with -32602 Invalid params, not an internal error", async () => {
    const bad = [
      { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: null } },
      { method: 'tools/call', params: { arguments: {} } },
      { method: 'tools/call', params: { name: 'list_workspaces', arguments: 'x' } },
    ];
    for (const message of bad) {
      const response = await fetch(new URL('/mcp', t.url), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${t.owner.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, ...message }),
      });
      const body = await response.json();
      assert.equal(body.error?.code, -32602, JSON.stringify(body));
      assert.match(body.error.message, new RegExp(`Invalid (params for )?${message.method}`));
      assert.equal(body.id, 7);
    }
  });

  it('answers GET and DELETE with 405: the endpoint keeps no sessions', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(new URL('/mcp', t.url), { method, headers: { authorization: `Bearer ${t.owner.key}` } });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
    }
  });
});
