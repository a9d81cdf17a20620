import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { addMember, issueKey } from '../provisioning/provisioning.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { callError, callOk } from './test-tool-calls.ts';

for (const dialect of testDialects()) {
  describe(`MCP workspace choice (${dialect})`, () => {
    let t: TestServer;
    let alone: TestWorkspace;
    let second: TestWorkspace;
    /** A user who is a viewer of `alone`'s workspace and a member of `second`'s, with a key. */
    let twoWorkspacesKey: string;
    const clients: Client[] = [];

    /** A client as an agent configures one: a key, and no x-service-team header. */
    async function connect(key: string): Promise<Client> {
      const client = new Client({ name: 'loupe-mcp-workspaces-test', version: '1.0.0' });
      const requestInit = { headers: { authorization: `Bearer ${key}` } };
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp?toolsets=audits,images', t.url), { requestInit }));
      clients.push(client);
      return client;
    }

    before(async () => {
      t = await startTestServer(dialect);
      alone = await t.createWorkspace();
      second = await t.createWorkspace();
      const email = `two-${randomUUID()}@example.test`;
      const userId = await addMember(t.server.database, { workspaceId: alone.workspaceId, email, role: 'viewer' });
      await addMember(t.server.database, { workspaceId: second.workspaceId, email, role: 'member' });
      twoWorkspacesKey = (await issueKey(t.server.database, { workspaceId: second.workspaceId, userId, role: 'member', name: 'two' }))
        .secret;
    });
    after(async () => {
      for (const client of clients) await client.close();
      await t.close();
    });

    it('acts in the only workspace of a key whose user is in one, with no argument', async () => {
      const client = await connect(alone.key);
      const created = await callOk(client, 'create_audit_project', { body: { name: 'Alone', siteUrl: 'https://example.com/' } });
      const listed = await callOk(client, 'list_audit_projects');
      assert.deepEqual(
        listed.items.map((project: { id: string }) => project.id),
        [created.id],
      );
      const workspaces = await callOk(client, 'list_workspaces');
      assert.deepEqual(
        workspaces.items.map((workspace: { id: string }) => workspace.id),
        [alone.workspaceId],
      );
    });

    it('refuses a workspace tool with no workspaceId when the user is in several, listing them with how to choose', async () => {
      const client = await connect(twoWorkspacesKey);
      const refused = await callError(client, 'list_audit_projects');
      assert.equal(refused.code, 'workspace_required');
      assert.match(refused.error, /workspaceId/);
      assert.deepEqual(
        refused.workspaces.map((workspace: { id: string }) => workspace.id).sort(),
        [alone.workspaceId, second.workspaceId].sort(),
      );
      for (const workspace of refused.workspaces) assert.equal(typeof workspace.name, 'string');
    });

    it('acts in the workspace the workspaceId argument names, with the role there', async () => {
      const client = await connect(twoWorkspacesKey);
      const inSecond = await callOk(client, 'create_audit_project', {
        workspaceId: second.workspaceId,
        body: { name: 'Second', siteUrl: 'https://example.org/' },
      });
      const listed = await callOk(client, 'list_audit_projects', { workspaceId: second.workspaceId });
      assert.ok(listed.items.some((project: { id: string }) => project.id === inSecond.id));
      const other = await callOk(client, 'list_audit_projects', { workspaceId: alone.workspaceId });
      assert.ok(!other.items.some((project: { id: string }) => project.id === inSecond.id));
    });

    it('refuses a write tool to a viewer of the workspace named', async () => {
      const client = await connect(twoWorkspacesKey);
      const refused = await callError(client, 'create_audit_project', {
        workspaceId: alone.workspaceId,
        body: { name: 'Viewer', siteUrl: 'https://example.net/' },
      });
      assert.equal(refused.code, 'forbidden');
    });

    it("answers not_found for a workspace id that is not one of the caller's, listing theirs", async () => {
      const client = await connect(alone.key);
      for (const workspaceId of [randomUUID(), second.workspaceId]) {
        const refused = await callError(client, 'list_audit_projects', { workspaceId });
        assert.equal(refused.code, 'not_found');
        assert.deepEqual(
          refused.workspaces.map((workspace: { id: string }) => workspace.id),
          [alone.workspaceId],
        );
      }
      const invalid = await callError(client, 'list_audit_projects', { workspaceId: 'not-an-id' });
      assert.equal(invalid.code, 'validation_failed');
    });

    it('takes no workspaceId on tools that need no workspace', async () => {
      const client = await connect(alone.key);
      const refused = await callError(client, 'list_image_projects', { workspaceId: alone.workspaceId });
      assert.equal(refused.code, 'validation_failed');
    });
  });
}
