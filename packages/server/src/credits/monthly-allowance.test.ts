import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { CreditStore } from './credit-store.ts';
import { allowancePeriod, MonthlyAllowance } from './monthly-allowance.ts';

const CREDITS = '/api/v1/team/credits';
const LEDGER = '/api/v1/team/credits/ledger';
/** The free plan's monthly credits (plans.json). */
const FREE_ALLOWANCE = 1000;

/** The first instant of the month `months` after the current one, UTC. */
function monthsFromNow(months: number): Date {
  const at = new Date();
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1, 0, 0, 1));
}

for (const dialect of testDialects()) {
  describe(`monthly credit allowance (${dialect})`, () => {
    let t: TestServer;

    before(async () => {
      t = await startTestServer(dialect, { schedulerTickMs: 0 });
    });
    after(() => t.close());

    const as = (workspace: TestWorkspace) => ({ key: workspace.key, team: workspace.workspaceId });
    const balanceOf = async (workspace: TestWorkspace): Promise<number> => (await t.request('GET', CREDITS, as(workspace))).body.balance;
    const grantsOf = async (workspace: TestWorkspace): Promise<{ amount: number; note: string }[]> =>
      (await t.request('GET', `${LEDGER}?limit=100`, as(workspace))).body.filter((entry: { kind: string }) => entry.kind === 'grant');
    /** Spends credits the way a running crawl holds them. */
    const hold = (workspace: TestWorkspace, amount: number) =>
      new CreditStore(t.server.database).reserve(workspace.workspaceId, amount, randomUUID());

    it('gives a new workspace its first month at once, and nothing more that month', async () => {
      const workspace = await t.createWorkspace();
      assert.equal(await balanceOf(workspace), FREE_ALLOWANCE);
      await hold(workspace, 300);
      const given = await t.server.allowance.tick(new Date());
      assert.equal(
        given.find((each) => each.workspaceId === workspace.workspaceId),
        undefined,
      );
      assert.equal(await balanceOf(workspace), 700);
      const grants = await grantsOf(workspace);
      assert.deepEqual(
        grants.map((grant) => [grant.amount, grant.note]),
        [[FREE_ALLOWANCE, `Monthly allowance of the free plan (${allowancePeriod(new Date())})`]],
      );
    });

    it('tops the balance up to the allowance in the next month, once however often it ticks', async () => {
      const workspace = await t.createWorkspace();
      await hold(workspace, 400);
      const next = monthsFromNow(1);
      const given = await t.server.allowance.tick(next);
      assert.deepEqual(given.find((each) => each.workspaceId === workspace.workspaceId)?.granted, 400);
      assert.equal(await balanceOf(workspace), FREE_ALLOWANCE);
      await hold(workspace, 100);
      await t.server.allowance.tick(next);
      await t.server.allowance.tick(new Date(next.getTime() + 86_400_000));
      assert.equal(await balanceOf(workspace), 900, 'the month was given already');
      const last = (await grantsOf(workspace)).at(-1);
      assert.deepEqual([last?.amount, last?.note], [400, `Monthly allowance of the free plan (${allowancePeriod(next)})`]);
    });

    it('keeps credits above the allowance and grants nothing then', async () => {
      const workspace = await t.createWorkspace();
      await new CreditStore(t.server.database).grant(workspace.workspaceId, 5000, 'bought');
      const given = await t.server.allowance.tick(monthsFromNow(2));
      assert.equal(given.find((each) => each.workspaceId === workspace.workspaceId)?.granted, 0);
      assert.equal(await balanceOf(workspace), FREE_ALLOWANCE + 5000);
    });

    it("tops up to the workspace's current plan", async () => {
      const workspace = await t.createWorkspace({ plan: 'pro' });
      await hold(workspace, 10_000);
      await t.request('PATCH', '/api/v1/team', { body: { plan: 'free' }, ...as(workspace) });
      await t.server.allowance.tick(monthsFromNow(3));
      assert.equal(await balanceOf(workspace), 50_000 - 10_000, 'above the free allowance: nothing granted');
      const other = await t.createWorkspace();
      await t.request('PATCH', '/api/v1/team', { body: { plan: 'pro' }, ...as(other) });
      await t.server.allowance.tick(monthsFromNow(3));
      assert.equal(await balanceOf(other), 50_000);
    });

    it('grants each month once when several processes tick the same instant', async () => {
      const workspaces = await Promise.all(Array.from({ length: 5 }, () => t.createWorkspace()));
      for (const workspace of workspaces) await hold(workspace, 250);
      const others = [new MonthlyAllowance(t.server.database, t.server.plans), new MonthlyAllowance(t.server.database, t.server.plans)];
      const at = monthsFromNow(4);
      const ticks = await Promise.all([t.server.allowance.tick(at), ...others.map((allowance) => allowance.tick(at))]);
      for (const workspace of workspaces) {
        const grants = ticks.flat().filter((each) => each.workspaceId === workspace.workspaceId);
        assert.deepEqual(
          grants.map((grant) => grant.granted),
          [250],
          'one process granted it',
        );
        assert.equal(await balanceOf(workspace), FREE_ALLOWANCE);
      }
    });
  });
}
