import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LoupeError } from '@loupe/contract';
import { ApiKeyStore } from '../identity/api-key-store.ts';
import { hashKeySecret } from '../identity/key-secret.ts';
import { Plans } from '../plans/plans.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { addMember } from './provisioning.ts';
import { WorkspaceAdmin } from './workspace-admin.ts';

const refused = (code: string, message: RegExp) => (error: unknown) =>
  error instanceof LoupeError && error.code === code && message.test(error.message);

for (const dialect of testDialects()) {
  describe(`loupe admin's workspaces, keys and users (${dialect})`, () => {
    let db: TestDatabase;
    let admin: WorkspaceAdmin;
    before(async () => {
      db = await openTestDatabase(dialect);
      admin = new WorkspaceAdmin(db.database, Plans.load());
    });
    after(() => db.close());

    it('refuses a default plan the table lacks when it is made', () => {
      assert.throws(() => new WorkspaceAdmin(db.database, Plans.load(), { defaultPlan: 'gold' }), /LOUPE_DEFAULT_PLAN: no plan "gold"/);
    });

    it('creates a workspace on the default plan with a new owner whose key is stored hashed', async () => {
      const created = await admin.createWorkspace({ name: '  Client A ', ownerEmail: 'Ann@Example.test' });
      assert.equal(created.plan, 'self-hosted');
      assert.deepEqual([created.owner.email, created.owner.created], ['ann@example.test', true]);
      const stored = await new ApiKeyStore(db.database).findByHash(hashKeySecret(created.key.secret));
      assert.equal(stored?.workspaceId, created.workspaceId);
      const workspaces = await admin.listWorkspaces();
      assert.ok(workspaces.some((w) => w.id === created.workspaceId && w.plan === 'self-hosted' && w.balance === 0));
    });

    it('makes an existing account owner of another workspace, on the plan asked for', async () => {
      const created = await admin.createWorkspace({ name: 'Client B', ownerEmail: 'ann@example.test', plan: 'free' });
      assert.deepEqual([created.plan, created.owner.created], ['free', false]);
      const [ann] = await admin.listUsers({ workspace: created.workspaceId });
      assert.deepEqual(
        ann?.workspaces.map((w) => `${w.name} ${w.role}`),
        ['Client A owner', 'Client B owner'],
      );
      const balance = (await admin.listWorkspaces()).find((w) => w.id === created.workspaceId)?.balance;
      assert.equal(balance, 1000, "the free plan's first month");
    });

    it('refuses an empty or long name, a malformed email and an unknown plan', async () => {
      const cases: [Parameters<WorkspaceAdmin['createWorkspace']>[0], RegExp][] = [
        [{ name: '', ownerEmail: 'a@example.test' }, /^--name: /],
        [{ name: 'x'.repeat(101), ownerEmail: 'a@example.test' }, /^--name: /],
        [{ name: 'X', ownerEmail: 'not-an-email' }, /^--owner: Invalid email/],
        [{ name: 'X', ownerEmail: 'a@example.test', plan: 'gold' }, /^Unknown plan "gold"/],
      ];
      for (const [input, message] of cases) await assert.rejects(admin.createWorkspace(input), refused('validation_failed', message));
      assert.deepEqual(
        (await admin.listUsers()).map((u) => u.email),
        ['ann@example.test'],
        'nothing was created',
      );
    });

    it('mints a key of the first owner, or of a named member with their role', async () => {
      const { workspaceId } = await admin.createWorkspace({ name: 'Keys', ownerEmail: 'owner-keys@example.test' });
      await addMember(db.database, { workspaceId, email: 'viewer@example.test', role: 'viewer' });
      const owner = await admin.mintKey({ workspace: workspaceId.toUpperCase() });
      assert.deepEqual([owner.role, owner.user.email, owner.key.name], ['owner', 'owner-keys@example.test', 'Minted with loupe admin']);
      const viewer = await admin.mintKey({ workspace: workspaceId, email: 'Viewer@Example.test', name: 'CI' });
      assert.deepEqual([viewer.role, viewer.key.name], ['viewer', 'CI']);
      const stored = await new ApiKeyStore(db.database).findByHash(hashKeySecret(viewer.key.secret));
      assert.deepEqual(stored?.scopes, ['images:read', 'reports:read', 'search:read']);
    });

    it('says which workspace or member is unknown', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      await assert.rejects(admin.mintKey({ workspace: unknown }), refused('not_found', /No workspace with id 0{8}-/));
      await assert.rejects(admin.listUsers({ workspace: unknown }), refused('not_found', /No workspace with id/));
      await assert.rejects(admin.mintKey({ workspace: 'nope' }), refused('validation_failed', /--workspace must be a workspace id/));
      const [first] = await admin.listWorkspaces();
      await assert.rejects(
        admin.mintKey({ workspace: first?.id as string, email: 'nobody@example.test' }),
        refused('not_found', /No member nobody@example\.test in workspace .* \(members: ann@example\.test\)/),
      );
    });
  });
}
