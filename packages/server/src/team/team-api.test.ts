import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BOOTSTRAP_OWNER_EMAIL } from '../provisioning/bootstrap.ts';
import { addMember } from '../provisioning/provisioning.ts';
import { crawlToReport } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { addTestMember } from './test-member.ts';

const TEAMS = '/api/v1/teams';
const TEAM = '/api/v1/team';

const thisMonth = () => new Date().toISOString().slice(0, 7);

function assertInvalid(answer: HttpAnswer, field: string): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.equal(answer.body.code, 'validation_failed');
  assert.ok(answer.body.details.fieldErrors[field], JSON.stringify(answer.body.details));
}

for (const dialect of testDialects()) {
  describe(`team (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      site = await startTestSite({
        pages: {
          '/': '<!doctype html><html lang="en"><head><title>Home</title></head><body><a href="/a">A</a></body></html>',
          '/a': '<!doctype html><html lang="en"><head><title>A</title></head><body>A</body></html>',
        },
      });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    const as = (workspace: TestWorkspace, key = workspace.key) => ({ key, team: workspace.workspaceId });
    const patch = (workspace: TestWorkspace, body: unknown, key = workspace.key) =>
      t.request('PATCH', TEAM, { ...as(workspace, key), body });

    describe('GET /teams', () => {
      it("lists the caller's workspaces with their role, without an x-service-team header", async () => {
        const answer = await t.request('GET', TEAMS, { team: null });
        assert.equal(answer.status, 200);
        assert.deepEqual(
          answer.body.find((w: any) => w.id === t.owner.workspaceId),
          { id: t.owner.workspaceId, name: 'Default', plan: 'free', role: 'owner' },
        );
      });

      it('shows the role the user holds in each workspace and leaves out the others', async () => {
        const joined = await t.createWorkspace({ plan: 'pro' });
        const stranger = await t.createWorkspace();
        await addMember(t.server.database, { workspaceId: joined.workspaceId, email: BOOTSTRAP_OWNER_EMAIL, role: 'viewer' });
        const answer = await t.request('GET', `${TEAMS}?limit=100`, { team: null });
        assert.equal(answer.status, 200);
        assert.deepEqual(
          answer.body.find((w: any) => w.id === joined.workspaceId),
          { id: joined.workspaceId, name: 'Other', plan: 'pro', role: 'viewer' },
        );
        assert.equal(
          answer.body.some((w: any) => w.id === stranger.workspaceId),
          false,
        );
      });

      it('lists one workspace for a new owner', async () => {
        const ws = await t.createWorkspace();
        const answer = await t.request('GET', TEAMS, { key: ws.key, team: null });
        assert.deepEqual(answer.body, [{ id: ws.workspaceId, name: 'Other', plan: 'free', role: 'owner' }]);
      });

      it('answers a viewer too', async () => {
        const ws = await t.createWorkspace();
        const viewer = await addTestMember(t, ws.workspaceId, 'viewer');
        const answer = await t.request('GET', TEAMS, { key: viewer.key, team: null });
        assert.equal(answer.status, 200);
        assert.deepEqual(
          answer.body.map((w: any) => w.role),
          ['viewer'],
        );
      });

      it('ignores an x-service-team header naming a workspace the user is not in', async () => {
        const stranger = await t.createWorkspace();
        const answer = await t.request('GET', TEAMS, { team: stranger.workspaceId });
        assert.equal(answer.status, 200);
        assert.equal(
          answer.body.some((w: any) => w.id === stranger.workspaceId),
          false,
        );
      });

      it('pages with limit and the Link header, each workspace once', async () => {
        const ws = await t.createWorkspace();
        const member = await addTestMember(t, ws.workspaceId, 'member');
        const others = [await t.createWorkspace(), await t.createWorkspace()];
        for (const other of others)
          await addMember(t.server.database, { workspaceId: other.workspaceId, email: member.email, role: 'admin' });
        const seen: string[] = [];
        let path: string | undefined = `${TEAMS}?limit=1`;
        while (path !== undefined) {
          const answer: HttpAnswer = await t.request('GET', path, { key: member.key, team: null });
          assert.equal(answer.status, 200);
          assert.equal(answer.body.length, 1);
          seen.push(answer.body[0].id);
          path = nextPage(answer);
        }
        assert.deepEqual(seen, [ws.workspaceId, ...others.map((o) => o.workspaceId)].sort());
      });

      for (const limit of ['0', '101', 'abc']) {
        it(`refuses limit=${limit}`, async () => {
          assertInvalid(await t.request('GET', `${TEAMS}?limit=${limit}`, { team: null }), 'limit');
        });
      }

      it('answers 401 without a key', async () => {
        const answer = await t.request('GET', TEAMS, { key: null, team: null });
        assert.equal(answer.status, 401);
      });
    });

    describe('GET /plans', () => {
      it("lists the instance's plans with their limits, for any member and without a workspace header", async () => {
        const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
        const answer = await t.request('GET', '/api/v1/plans', { key: viewer, team: null });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.deepEqual(
          answer.body.map((plan: { name: string }) => plan.name),
          ['free', 'pro', 'business', 'self-hosted'],
        );
        const business = answer.body.find((plan: { name: string }) => plan.name === 'business');
        assert.equal(business.limits.imageProjects, null);
        const team = await t.request('GET', TEAM);
        const free = answer.body.find((plan: { name: string }) => plan.name === 'free');
        assert.deepEqual(free.limits, team.body.limits, 'the limits GET /team shows for a free workspace');
        assert.equal((await t.request('GET', '/api/v1/plans', { key: null, team: null })).status, 401);
      });
    });

    describe('GET /team', () => {
      it("answers a new workspace's name, default settings, plan limits, credits and empty usage", async () => {
        const ws = await t.createWorkspace();
        const answer = await t.request('GET', TEAM, as(ws));
        assert.equal(answer.status, 200);
        const { createdAt, updatedAt, ...rest } = answer.body;
        assert.deepEqual(rest, {
          id: ws.workspaceId,
          name: 'Other',
          plan: 'free',
          settings: { timezone: 'UTC', notificationEmail: null },
          limits: {
            pagesPerCrawl: 500,
            monthlyCredits: 1000,
            imageProjects: 3,
            imagesPerProject: 1000,
            scheduledCrawls: false,
            customRulePacks: false,
          },
          credits: { balance: 1000, monthlyAllowance: 1000 },
          usage: { month: thisMonth(), crawls: 0, pagesCrawled: 0, creditsCharged: 0, members: 1, imageProjects: 0 },
        });
        assert.ok(!Number.isNaN(Date.parse(createdAt)));
        assert.equal(updatedAt, createdAt);
      });

      it('shows unlimited limits as null on the business plan', async () => {
        const ws = await t.createWorkspace({ plan: 'business' });
        const answer = await t.request('GET', TEAM, as(ws));
        assert.equal(answer.body.limits.imageProjects, null);
        assert.equal(answer.body.limits.imagesPerProject, null);
        assert.equal(answer.body.credits.monthlyAllowance, 500_000);
      });

      it("counts this month's crawls, their pages and the credits charged, members and image projects", async () => {
        const ws = await t.createWorkspace();
        await addTestMember(t, ws.workspaceId, 'viewer');
        const project = await t.request('POST', '/api/images/projects', { key: ws.key, body: { name: 'Photos' } });
        assert.equal(project.status, 201);
        const report = await crawlToReport(t, { url: site.url('/'), mode: 'site', maxPages: 10 }, as(ws));
        assert.equal(report.pages.crawled, 2);
        const answer = await t.request('GET', TEAM, as(ws));
        assert.deepEqual(answer.body.usage, {
          month: thisMonth(),
          crawls: 1,
          pagesCrawled: 2,
          creditsCharged: 2,
          members: 2,
          imageProjects: 1,
        });
        assert.equal(answer.body.credits.balance, 998);
      });

      it("answers only the workspace named by x-service-team, not another one's usage", async () => {
        const ws = await t.createWorkspace();
        await addTestMember(t, t.owner.workspaceId, 'member');
        const answer = await t.request('GET', TEAM, as(ws));
        assert.equal(answer.body.id, ws.workspaceId);
        assert.equal(answer.body.usage.members, 1);
      });

      for (const role of ['viewer', 'member', 'admin'] as const) {
        it(`answers a ${role}`, async () => {
          const ws = await t.createWorkspace();
          const someone = await addTestMember(t, ws.workspaceId, role);
          const answer = await t.request('GET', TEAM, as(ws, someone.key));
          assert.equal(answer.status, 200);
          assert.equal(answer.body.id, ws.workspaceId);
        });
      }

      it('answers 400 team_header_required without x-service-team', async () => {
        const answer = await t.request('GET', TEAM, { team: null });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'team_header_required');
      });

      it('answers 403 not_a_member for a workspace the caller is not in', async () => {
        const stranger = await t.createWorkspace();
        const answer = await t.request('GET', TEAM, { team: stranger.workspaceId });
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'not_a_member');
      });
    });

    describe('PATCH /team', () => {
      it('renames the workspace, trimmed, and moves updatedAt', async () => {
        const ws = await t.createWorkspace();
        const before = (await t.request('GET', TEAM, as(ws))).body;
        const answer = await patch(ws, { name: '  Acme  ' });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.name, 'Acme');
        assert.ok(answer.body.updatedAt >= before.updatedAt);
        assert.equal(answer.body.createdAt, before.createdAt);
        assert.equal((await t.request('GET', TEAM, as(ws))).body.name, 'Acme');
        const listed = await t.request('GET', TEAMS, { key: ws.key, team: null });
        assert.equal(listed.body[0].name, 'Acme');
      });

      it('takes a name of 1 and of 100 characters', async () => {
        const ws = await t.createWorkspace();
        assert.equal((await patch(ws, { name: 'x' })).body.name, 'x');
        assert.equal((await patch(ws, { name: 'y'.repeat(100) })).body.name, 'y'.repeat(100));
      });

      for (const [label, name] of [
        ['an empty name', ''],
        ['a blank name', '   '],
        ['a name of 101 characters', 'z'.repeat(101)],
        ['a number as name', 42],
        ['a null name', null],
      ] as const) {
        it(`refuses ${label} and keeps the old one`, async () => {
          const ws = await t.createWorkspace();
          assertInvalid(await patch(ws, { name }), 'name');
          assert.equal((await t.request('GET', TEAM, as(ws))).body.name, 'Other');
        });
      }

      it('refuses an empty body', async () => {
        const ws = await t.createWorkspace();
        const answer = await patch(ws, {});
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
      });

      it('refuses an unknown field', async () => {
        const ws = await t.createWorkspace();
        assertInvalid(await patch(ws, { name: 'A', owner: 'me' }), 'owner');
      });

      it('refuses an array as body', async () => {
        const ws = await t.createWorkspace();
        const answer = await patch(ws, [{ name: 'A' }]);
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
      });

      it('sets the time zone in its canonical spelling', async () => {
        const ws = await t.createWorkspace();
        const answer = await patch(ws, { settings: { timezone: 'europe/paris' } });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.deepEqual(answer.body.settings, { timezone: 'Europe/Paris', notificationEmail: null });
      });

      for (const timezone of ['Mars/Olympus', 'UTC+25', '', 7]) {
        it(`refuses the time zone ${JSON.stringify(timezone)}`, async () => {
          const ws = await t.createWorkspace();
          assertInvalid(await patch(ws, { settings: { timezone } }), 'settings.timezone');
        });
      }

      it('merges settings: a change to one keeps the other', async () => {
        const ws = await t.createWorkspace();
        await patch(ws, { settings: { timezone: 'Asia/Tokyo' } });
        const answer = await patch(ws, { settings: { notificationEmail: 'Ops@Example.com' } });
        assert.deepEqual(answer.body.settings, { timezone: 'Asia/Tokyo', notificationEmail: 'ops@example.com' });
        const read = await t.request('GET', TEAM, as(ws));
        assert.deepEqual(read.body.settings, { timezone: 'Asia/Tokyo', notificationEmail: 'ops@example.com' });
      });

      it('clears the notification email with null', async () => {
        const ws = await t.createWorkspace();
        await patch(ws, { settings: { notificationEmail: 'ops@example.com', timezone: 'America/New_York' } });
        const answer = await patch(ws, { settings: { notificationEmail: null } });
        assert.deepEqual(answer.body.settings, { timezone: 'America/New_York', notificationEmail: null });
      });

      for (const [label, settings, field] of [
        ['a notification email that is not an email', { notificationEmail: 'not-an-email' }, 'settings.notificationEmail'],
        ['an unknown setting', { theme: 'dark' }, 'settings.theme'],
        ['settings as a string', 'UTC', 'settings'],
      ] as const) {
        it(`refuses ${label}`, async () => {
          const ws = await t.createWorkspace();
          assertInvalid(await patch(ws, { settings }), field);
        });
      }

      it('refuses empty settings', async () => {
        const ws = await t.createWorkspace();
        const answer = await patch(ws, { settings: {} });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
      });

      it('lets the owner change the plan; the limits follow and the credits stay', async () => {
        const ws = await t.createWorkspace();
        const answer = await patch(ws, { plan: 'pro' });
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.equal(answer.body.plan, 'pro');
        assert.equal(answer.body.limits.pagesPerCrawl, 10_000);
        assert.deepEqual(answer.body.credits, { balance: 1000, monthlyAllowance: 50_000 });
        const ledger = await t.request('GET', '/api/v1/team/credits/ledger', as(ws));
        assert.equal(ledger.body.length, 1);
      });

      it('refuses an owner the unmetered self-hosted plan where new workspaces are metered, and keeps the plan', async () => {
        const ws = await t.createWorkspace();
        const answer = await patch(ws, { plan: 'self-hosted' });
        assert.equal(answer.status, 403, JSON.stringify(answer.body));
        assert.equal(answer.body.code, 'forbidden');
        assert.match(answer.body.error, /only its operator assigns it \(loupe admin set-plan\)/);
        assert.equal((await t.request('GET', TEAM, as(ws))).body.plan, 'free');
      });

      it('refuses an unknown plan with 400 and keeps the plan', async () => {
        const ws = await t.createWorkspace();
        assertInvalid(await patch(ws, { plan: 'platinum' }), 'plan');
        assert.equal((await t.request('GET', TEAM, as(ws))).body.plan, 'free');
      });

      for (const plan of ['', 5]) {
        it(`refuses the plan ${JSON.stringify(plan)}`, async () => {
          const ws = await t.createWorkspace();
          assertInvalid(await patch(ws, { plan }), 'plan');
        });
      }

      it('refuses an admin a plan change with 403 forbidden and changes nothing else of the request', async () => {
        const ws = await t.createWorkspace();
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const answer = await patch(ws, { plan: 'business', name: 'Sneaky' }, admin.key);
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'forbidden');
        const read = (await t.request('GET', TEAM, as(ws))).body;
        assert.equal(read.plan, 'free');
        assert.equal(read.name, 'Other');
      });

      it('lets an admin send the current plan back unchanged with a rename', async () => {
        const ws = await t.createWorkspace();
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const answer = await patch(ws, { plan: 'free', name: 'Renamed' }, admin.key);
        assert.equal(answer.status, 200);
        assert.equal(answer.body.name, 'Renamed');
      });

      it('lets an admin change name and settings', async () => {
        const ws = await t.createWorkspace();
        const admin = await addTestMember(t, ws.workspaceId, 'admin');
        const answer = await patch(ws, { name: 'By admin', settings: { timezone: 'UTC' } }, admin.key);
        assert.equal(answer.status, 200);
        assert.equal(answer.body.name, 'By admin');
      });

      for (const role of ['member', 'viewer'] as const) {
        it(`refuses a ${role} with 403 forbidden`, async () => {
          const ws = await t.createWorkspace();
          const someone = await addTestMember(t, ws.workspaceId, role);
          const answer = await patch(ws, { name: 'Nope' }, someone.key);
          assert.equal(answer.status, 403);
          assert.equal(answer.body.code, 'forbidden');
          assert.deepEqual(answer.body.missingScopes, ['team:admin']);
          assert.equal((await t.request('GET', TEAM, as(ws))).body.name, 'Other');
        });
      }

      it('keeps both of two concurrent settings changes', async () => {
        const ws = await t.createWorkspace();
        const [a, b] = await Promise.all([
          patch(ws, { settings: { timezone: 'Europe/Berlin' } }),
          patch(ws, { settings: { notificationEmail: 'a@example.com' } }),
        ]);
        assert.equal(a.status, 200);
        assert.equal(b.status, 200);
        const read = await t.request('GET', TEAM, as(ws));
        assert.deepEqual(read.body.settings, { timezone: 'Europe/Berlin', notificationEmail: 'a@example.com' });
      });
    });
  });
}
