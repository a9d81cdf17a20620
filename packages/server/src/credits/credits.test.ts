import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { LoupeError } from '@loupe/contract';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { CreditService } from './credit-service.ts';

const CREDITS = '/api/v1/team/credits';
const LEDGER = '/api/v1/team/credits/ledger';

for (const dialect of testDialects()) {
  describe(`credits (${dialect})`, () => {
    let t: TestServer;
    let credits: CreditService;

    before(async () => {
      t = await startTestServer(dialect);
      credits = new CreditService(t.server.database, t.server.plans);
    });
    after(() => t.close());

    /** A GET as the workspace's owner, in that workspace. */
    const get = (path: string, workspace: TestWorkspace) => t.request('GET', path, { key: workspace.key, team: workspace.workspaceId });

    async function summaryOf(workspace: TestWorkspace): Promise<any> {
      const answer = await get(CREDITS, workspace);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    }

    async function ledgerOf(workspace: TestWorkspace): Promise<any[]> {
      const answer = await get(`${LEDGER}?limit=100`, workspace);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    }

    describe('a new workspace', () => {
      it("has the free plan's 1,000 credits, none reserved, and the plan's allowances", async () => {
        const workspace = await t.createWorkspace();
        assert.deepEqual(await summaryOf(workspace), {
          balance: 1000,
          reserved: 0,
          plan: 'free',
          pagesPerCrawl: 500,
          monthlyCredits: 1000,
        });
      });

      it('has one grant of 1,000 in its ledger', async () => {
        const workspace = await t.createWorkspace();
        const ledger = await ledgerOf(workspace);
        assert.equal(ledger.length, 1);
        const [grant] = ledger;
        assert.equal(grant.kind, 'grant');
        assert.equal(grant.amount, 1000);
        assert.equal(grant.balanceAfter, 1000);
        assert.equal(grant.crawlId, null);
        assert.match(grant.note, /free plan/);
        assert.match(grant.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      });

      it("gets its own plan's allowance on a pro plan", async () => {
        const workspace = await t.createWorkspace({ plan: 'pro' });
        const summary = await summaryOf(workspace);
        assert.equal(summary.balance, 50_000);
        assert.equal(summary.pagesPerCrawl, 10_000);
        assert.equal(summary.monthlyCredits, 50_000);
      });

      it('includes the workspace made on first start', async () => {
        const summary = await summaryOf(t.owner);
        assert.equal(summary.plan, 'free');
        assert.ok((await ledgerOf(t.owner)).some((entry) => entry.kind === 'grant' && entry.amount === 1000));
      });
    });

    describe('GET /api/v1/team/credits', () => {
      it('shows the credits held by an unsettled crawl as reserved, outside the balance', async () => {
        const workspace = await t.createWorkspace();
        const crawlId = randomUUID();
        await credits.reserve(workspace.workspaceId, 100, crawlId);
        const held = await summaryOf(workspace);
        assert.deepEqual([held.balance, held.reserved], [900, 100]);
        await credits.settle(workspace.workspaceId, crawlId, 100, 60);
        const settled = await summaryOf(workspace);
        assert.equal(settled.balance, 940);
        assert.equal(settled.reserved, 0);
      });

      it('answers 400 team_header_required without x-service-team', async () => {
        const answer = await t.request('GET', CREDITS, { team: null });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'team_header_required');
      });

      it("answers 403 not_a_member for a workspace the key's user is not in", async () => {
        const other = await t.createWorkspace();
        const answer = await t.request('GET', CREDITS, { team: other.workspaceId });
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'not_a_member');
      });

      it('lets a viewer read it', async () => {
        const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
        const answer = await t.request('GET', CREDITS, { key: viewer });
        assert.equal(answer.status, 200);
      });

      it('refuses a key without reports:read with 403 forbidden', async () => {
        const created = await t.request('POST', '/api/v1/keys', { body: { name: 'images only', scopes: ['images:read'] } });
        const answer = await t.request('GET', CREDITS, { key: created.body.key });
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'forbidden');
      });
    });

    describe('GET /api/v1/team/credits/ledger', () => {
      it('pages oldest first with limit=1 by following the rel="next" link to the last page', async () => {
        const workspace = await t.createWorkspace();
        for (const amount of [1, 2, 3]) await credits.grant(workspace.workspaceId, amount, `top-up ${amount}`);
        const seen: any[] = [];
        let path: string | undefined = `${LEDGER}?limit=1`;
        while (path !== undefined) {
          const answer: HttpAnswer = await get(path, workspace);
          assert.equal(answer.status, 200);
          assert.equal(answer.body.length, 1);
          seen.push(answer.body[0]);
          path = nextPage(answer);
        }
        assert.deepEqual(
          seen.map((entry) => [entry.amount, entry.balanceAfter]),
          [
            [1000, 1000],
            [1, 1001],
            [2, 1003],
            [3, 1006],
          ],
        );
      });

      it("never shows another workspace's entries", async () => {
        const mine = await t.createWorkspace();
        const theirs = await t.createWorkspace();
        await credits.grant(theirs.workspaceId, 7, 'theirs only');
        const ledger = await ledgerOf(mine);
        assert.equal(ledger.length, 1);
        assert.equal(
          ledger.some((entry) => entry.note === 'theirs only'),
          false,
        );
      });

      it("refuses another workspace's ledger with 403 not_a_member", async () => {
        const theirs = await t.createWorkspace();
        const answer = await t.request('GET', LEDGER, { team: theirs.workspaceId });
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'not_a_member');
      });

      it('answers 400 team_header_required without x-service-team', async () => {
        const answer = await t.request('GET', LEDGER, { team: null });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'team_header_required');
      });

      it('refuses a cursor that did not come from a previous page', async () => {
        const answer = await t.request('GET', `${LEDGER}?cursor=bogus`);
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.cursor);
      });
    });

    describe('reserving and settling', () => {
      it('refuses a reservation beyond the balance with insufficient_credits, required and balance, changing nothing', async () => {
        const workspace = await t.createWorkspace();
        const ledgerBefore = await ledgerOf(workspace);
        await assert.rejects(credits.reserve(workspace.workspaceId, 1001, randomUUID()), (error: unknown) => {
          assert.ok(error instanceof LoupeError);
          assert.equal(error.code, 'insufficient_credits');
          assert.equal(error.status, 402);
          assert.deepEqual(error.extra, { required: 1001, balance: 1000 });
          assert.equal(error.toBody().required, 1001);
          return true;
        });
        const summary = await summaryOf(workspace);
        assert.equal(summary.balance, 1000);
        assert.equal(summary.reserved, 0);
        assert.deepEqual(await ledgerOf(workspace), ledgerBefore);
      });

      it('reserves the whole balance exactly', async () => {
        const workspace = await t.createWorkspace();
        await credits.reserve(workspace.workspaceId, 1000, randomUUID());
        assert.equal((await summaryOf(workspace)).balance, 0);
      });

      it('charges the pages used and releases the rest: reserve −100, release +100, charge −37', async () => {
        const workspace = await t.createWorkspace();
        const crawlId = randomUUID();
        await credits.reserve(workspace.workspaceId, 100, crawlId);
        assert.equal(await credits.settle(workspace.workspaceId, crawlId, 100, 37), true);

        assert.equal((await summaryOf(workspace)).balance, 1000 - 37);
        const entries = (await ledgerOf(workspace)).slice(1);
        assert.deepEqual(
          entries.map((entry) => [entry.kind, entry.amount, entry.balanceAfter, entry.crawlId]),
          [
            ['reserve', -100, 900, crawlId],
            ['release', 100, 1000, crawlId],
            ['charge', -37, 963, crawlId],
          ],
        );
      });

      it('charges once when a crawl is settled twice', async () => {
        const workspace = await t.createWorkspace();
        const crawlId = randomUUID();
        await credits.reserve(workspace.workspaceId, 100, crawlId);
        assert.equal(await credits.settle(workspace.workspaceId, crawlId, 100, 37), true);
        assert.equal(await credits.settle(workspace.workspaceId, crawlId, 100, 37), false);
        assert.equal((await summaryOf(workspace)).balance, 963);
        assert.equal((await ledgerOf(workspace)).filter((entry) => entry.kind === 'charge').length, 1);
      });

      it('charges once when two settlements of a crawl race', async () => {
        const workspace = await t.createWorkspace();
        const crawlId = randomUUID();
        await credits.reserve(workspace.workspaceId, 100, crawlId);
        const outcomes = await Promise.all([
          credits.settle(workspace.workspaceId, crawlId, 100, 40),
          credits.settle(workspace.workspaceId, crawlId, 100, 40),
        ]);
        assert.deepEqual(outcomes.sort(), [false, true]);
        assert.equal((await summaryOf(workspace)).balance, 960);
      });

      it('refuses to release more than the crawl holds, changing nothing', async () => {
        const workspace = await t.createWorkspace();
        const crawlId = randomUUID();
        await credits.reserve(workspace.workspaceId, 10, crawlId);
        await assert.rejects(credits.settle(workspace.workspaceId, crawlId, 500, 0), /holds 10 credits/);
        assert.equal((await summaryOf(workspace)).balance, 990);
        assert.equal((await summaryOf(workspace)).reserved, 10);
      });

      it('lets 50 concurrent reservations of 30 credits from 1,000 succeed exactly 33 times, never below zero', async () => {
        const workspace = await t.createWorkspace();
        const outcomes = await Promise.allSettled(
          Array.from({ length: 50 }, () => credits.reserve(workspace.workspaceId, 30, randomUUID())),
        );
        const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
        assert.equal(outcomes.length - refused.length, 33);
        for (const { reason } of refused) assert.equal((reason as LoupeError).code, 'insufficient_credits');

        const summary = await summaryOf(workspace);
        assert.equal(summary.balance, 10);
        assert.equal(summary.reserved, 990);
        const ledger = await ledgerOf(workspace);
        assert.equal(ledger.filter((entry) => entry.kind === 'reserve').length, 33);
        assert.ok(ledger.every((entry) => entry.balanceAfter >= 0));
        assert.equal(Math.min(...ledger.map((entry) => entry.balanceAfter)), 10);
      });

      it('answers not_found when granting to an unknown workspace', async () => {
        await assert.rejects(credits.grant(randomUUID(), 5), (error: unknown) => {
          assert.ok(error instanceof LoupeError);
          assert.equal(error.code, 'not_found');
          return true;
        });
      });
    });
  });
}
