import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';
import { json, runLoupe, serverEnv } from '../test-loupe-run.ts';

describe('loupe team', () => {
  let t: TestServer;
  let env: Record<string, string>;
  let viewerEnv: Record<string, string>;
  before(async () => {
    t = await startTestServer('sqlite');
    env = serverEnv(t);
    viewerEnv = serverEnv(t, await t.createMemberKey(t.owner.workspaceId, 'viewer'));
  });
  after(() => t.close());

  it('shows the workspace with its id', async () => {
    const run = await runLoupe(['team', 'show'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, new RegExp(`^id +${t.owner.workspaceId}$`, 'm'));
    assert.equal(json(await runLoupe(['team', 'show', '--json'], env)).id, t.owner.workspaceId);
  });

  it('lists the members, and changes a role by email', async () => {
    const members = json(await runLoupe(['team', 'members', '--json'], env));
    const viewer = members.find((m: { role: string }) => m.role === 'viewer');
    assert.ok(viewer);
    const run = await runLoupe(['team', 'role', viewer.email.toUpperCase(), '--role', 'member'], env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), `${viewer.email} is now member.`);
    const back = json(await runLoupe(['team', 'role', viewer.userId, '--role', 'viewer', '--json'], env));
    assert.equal(back.role, 'viewer');
  });

  it('refuses to demote the last owner, saying why', async () => {
    const owner = json(await runLoupe(['team', 'members', '--json'], env)).find((m: { role: string }) => m.role === 'owner');
    const run = await runLoupe(['team', 'role', owner.email, '--role', 'admin'], env);
    assert.equal(run.code, 6);
    assert.match(run.stderr, /at least one owner/);
  });

  it('invites someone, lists the invite and revokes it', async () => {
    const invite = json(
      await runLoupe(['team', 'invite', 'mia@example.test', '--role', 'member', '--expires-in-days', '3', '--json'], env),
    );
    assert.match(invite.url, /^https?:\/\/.+\/invites\/[\w-]{16,}$/);
    const listed = json(await runLoupe(['team', 'invites', '--json'], env));
    assert.deepEqual(
      listed.map((i: { email: string }) => i.email),
      ['mia@example.test'],
    );
    assert.equal(listed[0].token, undefined);
    assert.deepEqual(json(await runLoupe(['team', 'revoke-invite', invite.id, '--json'], env)), { deleted: true });
    assert.equal((await runLoupe(['team', 'invites'], env)).stdout.trim(), 'No pending invites.');
  });

  it('exits 2 for a missing or unknown role, 4 for an unknown member, 3 for a viewer inviting', async () => {
    const missing = await runLoupe(['team', 'invite', 'a@example.test'], env);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /required option '--role <role>' not specified/);
    assert.equal((await runLoupe(['team', 'invite', 'a@example.test', '--role', 'king'], env)).code, 2);
    const unknown = await runLoupe(['team', 'remove', 'nobody@example.test'], env);
    assert.equal(unknown.code, 4);
    assert.match(unknown.stderr, /loupe team members shows them/);
    assert.equal((await runLoupe(['team', 'invite', 'b@example.test', '--role', 'viewer'], viewerEnv)).code, 3);
  });

  it('lets a viewer leave by naming themself', async () => {
    const viewer = json(await runLoupe(['team', 'members', '--json'], env)).find((m: { role: string }) => m.role === 'viewer');
    const run = await runLoupe(['team', 'remove', viewer.email], viewerEnv);
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await runLoupe(['team', 'members'], viewerEnv)).code, 3);
  });
});
