import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { operations } from '@loupe/contract';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { addMember, issueKey } from '../provisioning/provisioning.ts';
import { generatedSite } from '../testing/fixture-sites.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { callError, callOk } from './test-tool-calls.ts';

const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));

describe('MCP over stdio (loupe mcp)', () => {
  let t: TestServer;
  let site: TestSite;
  let home: string;
  const clients: Client[] = [];

  /** `loupe mcp` as an agent starts it: a process of its own, configured by the environment. */
  async function spawnMcp(env: Record<string, string>, args: string[] = []): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', ...args],
      // A home and working directory of its own: no config file or .env of the machine's.
      cwd: home,
      env: { ...getDefaultEnvironment(), HOME: home, XDG_CONFIG_HOME: home, ...env },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'loupe-stdio-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  const ownerEnv = () => ({ LOUPE_URL: t.url, LOUPE_API_KEY: t.owner.key, LOUPE_WORKSPACE: t.owner.workspaceId });

  before(async () => {
    home = await mkdtemp(join(tmpdir(), 'loupe-mcp-home-'));
    t = await startTestServer('sqlite', { crawlAllowPrivate: true });
    site = await startTestSite(generatedSite(4), { record: false });
  });
  after(async () => {
    for (const client of clients) await client.close();
    await site.close();
    await t.close();
    await rm(home, { recursive: true, force: true });
  });

  it('lists the default toolsets, or those --toolsets names', async () => {
    const byDefault = (await (await spawnMcp(ownerEnv())).listTools()).tools.map((tool) => tool.name);
    assert.ok(byDefault.includes('start_crawl') && !byDefault.includes('create_rule_pack'));
    const { tools } = await (await spawnMcp(ownerEnv(), ['--toolsets', 'all'])).listTools();
    assert.equal(tools.filter((tool) => !['list_toolsets', 'list_report_issues', 'cdn_url'].includes(tool.name)).length, operations.length);
    const rules = (await (await spawnMcp(ownerEnv(), ['--toolsets', 'rules'])).listTools()).tools.map((tool) => tool.name);
    assert.ok(rules.includes('create_rule_pack') && !rules.includes('start_crawl'));
  });

  it('exits with an error naming the toolsets for an unknown one', async () => {
    const run = spawnSync(process.execPath, [cli, 'mcp', '--toolsets', 'images,nope'], {
      cwd: home,
      env: { ...getDefaultEnvironment(), HOME: home, XDG_CONFIG_HOME: home, ...ownerEnv() },
      input: '',
      encoding: 'utf8',
    });
    assert.notEqual(run.status, 0);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /Unknown toolset nope: choose among images, .*all/);
  });

  it('creates an image project over HTTP to the server and reads it back', async () => {
    const client = await spawnMcp(ownerEnv());
    const project = await callOk(client, 'create_image_project', { body: { name: 'From stdio' } });
    assert.equal((await callOk(client, 'get_image_project', { projectId: project.id })).name, 'From stdio');
    const missing = await callError(client, 'get_image_project', { projectId: randomUUID() });
    assert.equal(missing.code, 'not_found');
  });

  it('starts a crawl, follows it and reads its end with get_crawl', async () => {
    const client = await spawnMcp(ownerEnv());
    const started = await callOk(client, 'start_crawl', { body: { url: site.url('/'), maxPages: 3 }, maxCredits: 3 });
    assert.equal((await callOk(client, 'stream_crawl_events', { crawlId: started.id, waitSeconds: 50 })).ended, true);
    const crawl = await callOk(client, 'get_crawl', { crawlId: started.id });
    assert.deepEqual([crawl.status, crawl.pagesCrawled], ['completed', 3]);
    const refused = await callError(client, 'start_crawl', { body: { url: site.url('/'), maxPages: 3 }, maxCredits: 2 });
    assert.deepEqual([refused.code, refused.estimate], ['max_credits_exceeded', 3]);
  });

  it("answers a workspace the key's user is not in with the API's 403 as a tool error", async () => {
    const other = await t.createWorkspace();
    const client = await spawnMcp({ ...ownerEnv(), LOUPE_WORKSPACE: other.workspaceId });
    assert.equal((await callError(client, 'get_credits')).code, 'not_a_member');
  });

  it('acts in the only workspace of the key, with no LOUPE_WORKSPACE, and refuses an unknown workspaceId', async () => {
    const client = await spawnMcp({ LOUPE_URL: t.url, LOUPE_API_KEY: t.owner.key });
    assert.equal(typeof (await callOk(client, 'get_credits')).balance, 'number');
    assert.equal((await callError(client, 'get_credits', { workspaceId: randomUUID() })).code, 'not_found');
  });

  it("refuses a workspace tool with no workspace when the key's user is in several, listing them", async () => {
    const other = await t.createWorkspace();
    const email = `two-${randomUUID()}@example.test`;
    const userId = await addMember(t.server.database, { workspaceId: t.owner.workspaceId, email, role: 'member' });
    await addMember(t.server.database, { workspaceId: other.workspaceId, email, role: 'viewer' });
    const { secret } = await issueKey(t.server.database, { workspaceId: t.owner.workspaceId, userId, role: 'member', name: 'two' });
    const client = await spawnMcp({ LOUPE_URL: t.url, LOUPE_API_KEY: secret });
    const refused = await callError(client, 'get_credits');
    assert.equal(refused.code, 'workspace_required');
    assert.deepEqual(
      refused.workspaces.map((workspace: { id: string }) => workspace.id).sort(),
      [t.owner.workspaceId, other.workspaceId].sort(),
    );
    assert.equal(typeof (await callOk(client, 'get_credits', { workspaceId: other.workspaceId })).balance, 'number');
  });

  it("answers an unknown key with the API's 401 as a tool error", async () => {
    const client = await spawnMcp({ ...ownerEnv(), LOUPE_API_KEY: 'loupe_not_a_real_key_at_all_000000' });
    const refused = await callError(client, 'list_image_projects');
    assert.equal(refused.code, 'unauthorized');
  });

  it('answers request_failed when the Loupe server cannot be reached', async () => {
    const client = await spawnMcp({ ...ownerEnv(), LOUPE_URL: 'http://127.0.0.1:9' });
    const failed = await callError(client, 'list_image_projects');
    assert.equal(failed.code, 'request_failed');
    assert.match(failed.error, /127\.0\.0\.1:9/);
  });
});
