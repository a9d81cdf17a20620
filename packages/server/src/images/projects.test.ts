import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';

const PROJECTS = '/api/images/projects';

/** A hostname no other test uses, so custom domains never clash by accident. */
function uniqueDomain(): string {
  return `img-${randomBytes(5).toString('hex')}.example.com`;
}

/** 63 + 1 + 63 + 1 + 63 + 1 + `lastLabel` characters: 253 with a 61-character last label. */
function longDomain(lastLabel: number): string {
  return ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(lastLabel)].join('.');
}

for (const dialect of testDialects()) {
  describe(`image projects (${dialect})`, () => {
    let t: TestServer;
    /** An unlimited workspace for tests that do not count projects. */
    let ws: TestWorkspace;

    before(async () => {
      t = await startTestServer(dialect);
      ws = await t.createWorkspace({ plan: 'business' });
    });
    after(() => t.close());

    async function createProject(name = 'Photos', key = ws.key): Promise<any> {
      const answer = await t.request('POST', PROJECTS, { key, body: { name } });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    }

    async function workspaceWithProjects(count: number): Promise<{ workspace: TestWorkspace; ids: string[] }> {
      const workspace = await t.createWorkspace({ plan: 'business' });
      const ids: string[] = [];
      for (let i = 0; i < count; i++) ids.push((await createProject(`Project ${i}`, workspace.key)).id);
      return { workspace, ids };
    }

    async function insertImage(projectId: string, path: string, fileSize: number): Promise<void> {
      const at = new Date().toISOString();
      const id = randomUUID();
      await t.server.database.db
        .insertInto('images')
        .values({
          id,
          project_id: projectId,
          path,
          // No original is stored: deleting the project must cope with a missing blob.
          blob_key: `originals/${projectId}/${id}`,
          filename: path,
          content_type: 'image/png',
          file_size: fileSize,
          width: 10,
          height: 10,
          format: 'png',
          blurhash: null,
          alt_text: null,
          tags: '[]',
          created_at: at,
          updated_at: at,
        })
        .execute();
    }

    async function createPreset(projectId: string, name: string): Promise<void> {
      const answer = await t.request('POST', `${PROJECTS}/${projectId}/presets`, {
        key: ws.key,
        body: { name, transforms: { width: 100 } },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
    }

    describe('creating', () => {
      it('creates a project with a slug from its name and the workspace plan', async () => {
        const created = await t.request('POST', PROJECTS, { body: { name: 'Summer Photos' } });
        assert.equal(created.status, 201);
        assert.match(created.body.slug, /^summer-photos-[a-z0-9]{6}$/);
        assert.equal(created.body.plan, 'free');
        assert.equal(created.body.customDomain, null);
        assert.equal(created.body.requireSignedUrls, false);
      });

      it('answers the created project with a UUID id, equal timestamps and no stats', async () => {
        const created = await createProject('Fresh');
        assert.match(created.id, /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        assert.equal(created.name, 'Fresh');
        assert.match(created.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.equal(created.updatedAt, created.createdAt);
        assert.equal('stats' in created, false);
      });

      it('gives two projects of the same name different slugs', async () => {
        const first = await createProject('Twins');
        const second = await createProject('Twins');
        assert.notEqual(first.slug, second.slug);
      });

      it('accepts a one-character name', async () => {
        const created = await createProject('x');
        assert.equal(created.name, 'x');
      });

      it('accepts a 100-character name', async () => {
        const name = 'n'.repeat(100);
        const created = await createProject(name);
        assert.equal(created.name, name);
      });

      it('counts the name in characters, so 100 emoji fit', async () => {
        const name = '📷'.repeat(100);
        const created = await createProject(name);
        assert.equal(created.name, name);
      });

      it('trims spaces around the name', async () => {
        const created = await createProject('  Padded  ');
        assert.equal(created.name, 'Padded');
      });

      it('refuses a 101-character name', async () => {
        const answer = await t.request('POST', PROJECTS, { key: ws.key, body: { name: 'n'.repeat(101) } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('refuses a missing name', async () => {
        const answer = await t.request('POST', PROJECTS, { key: ws.key, body: {} });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('refuses an empty name', async () => {
        const answer = await t.request('POST', PROJECTS, { key: ws.key, body: { name: '' } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('refuses a name of only whitespace', async () => {
        const answer = await t.request('POST', PROJECTS, { key: ws.key, body: { name: ' \t\n ' } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('refuses a name that is not a string', async () => {
        const answer = await t.request('POST', PROJECTS, { key: ws.key, body: { name: 42 } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('refuses an unknown field', async () => {
        const answer = await t.request('POST', PROJECTS, { key: ws.key, body: { name: 'Ok', color: 'red' } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.deepEqual(answer.body.details.fieldErrors.color, ['Unknown field.']);
      });

      it('refuses a body that is not valid JSON', async () => {
        const answer = await t.request('POST', PROJECTS, { key: ws.key, body: '{"name":' });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'invalid_json');
      });
    });

    describe('plan limit', () => {
      it('refuses a fourth project on the free plan with 403 plan_limit_reached, limit and current', async () => {
        const free = await t.createWorkspace();
        for (let i = 0; i < 3; i++) await createProject(`Free ${i}`, free.key);
        const answer = await t.request('POST', PROJECTS, { key: free.key, body: { name: 'One too many' } });
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'plan_limit_reached');
        assert.equal(answer.body.limit, 3);
        assert.equal(answer.body.current, 3);
      });

      it('counts projects per workspace, so a full workspace does not block another', async () => {
        const full = await t.createWorkspace();
        for (let i = 0; i < 3; i++) await createProject(`Full ${i}`, full.key);
        const other = await t.createWorkspace();
        const answer = await t.request('POST', PROJECTS, { key: other.key, body: { name: 'Mine' } });
        assert.equal(answer.status, 201);
      });

      it('allows more than three projects on the pro plan', async () => {
        const pro = await t.createWorkspace({ plan: 'pro' });
        for (let i = 0; i < 3; i++) await createProject(`Pro ${i}`, pro.key);
        const fourth = await t.request('POST', PROJECTS, { key: pro.key, body: { name: 'Pro 3' } });
        assert.equal(fourth.status, 201);
        assert.equal(fourth.body.plan, 'pro');
      });

      it('frees a place when a project is deleted', async () => {
        const free = await t.createWorkspace();
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) ids.push((await createProject(`Free ${i}`, free.key)).id);
        const deleted = await t.request('DELETE', `${PROJECTS}/${ids[0]}`, { key: free.key });
        assert.equal(deleted.status, 200);
        const answer = await t.request('POST', PROJECTS, { key: free.key, body: { name: 'Replacement' } });
        assert.equal(answer.status, 201);
      });

      it('never exceeds the limit when six creates race on the free plan', async () => {
        const free = await t.createWorkspace();
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) => t.request('POST', PROJECTS, { key: free.key, body: { name: `Race ${i}` } })),
        );
        const statuses = answers.map((answer) => answer.status).sort();
        assert.deepEqual(statuses, [201, 201, 201, 403, 403, 403]);
        for (const refused of answers.filter((answer) => answer.status === 403)) {
          assert.equal(refused.body.code, 'plan_limit_reached');
        }
        const list = await t.request('GET', PROJECTS, { key: free.key });
        assert.equal(list.body.length, 3);
      });
    });

    describe('listing', () => {
      it('answers a bare array of the workspace projects without stats', async () => {
        const { workspace, ids } = await workspaceWithProjects(2);
        const answer = await t.request('GET', PROJECTS, { key: workspace.key });
        assert.equal(answer.status, 200);
        assert.ok(Array.isArray(answer.body));
        assert.deepEqual(
          answer.body.map((project: any) => project.id),
          ids,
        );
        for (const project of answer.body) {
          assert.equal('stats' in project, false);
          assert.equal(project.plan, 'business');
        }
      });

      it('answers an empty array and no Link header for a workspace without projects', async () => {
        const empty = await t.createWorkspace();
        const answer = await t.request('GET', PROJECTS, { key: empty.key });
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, []);
        assert.equal(answer.headers.get('link'), null);
      });

      it('pages with limit=1 by following the rel="next" link to the last page', async () => {
        const { workspace, ids } = await workspaceWithProjects(3);
        const seen: string[] = [];
        let path: string | undefined = `${PROJECTS}?limit=1`;
        let pages = 0;
        while (path !== undefined) {
          const answer: HttpAnswer = await t.request('GET', path, { key: workspace.key });
          assert.equal(answer.status, 200);
          assert.equal(answer.body.length, 1);
          seen.push(answer.body[0].id);
          pages++;
          path = nextPage(answer);
        }
        assert.equal(pages, 3);
        assert.deepEqual(seen, ids);
      });

      it('keeps the limit in the next link', async () => {
        const { workspace } = await workspaceWithProjects(3);
        const first = await t.request('GET', `${PROJECTS}?limit=2`, { key: workspace.key });
        const next = nextPage(first);
        assert.ok(next);
        assert.equal(new URL(next, t.url).searchParams.get('limit'), '2');
        const second = await t.request('GET', next, { key: workspace.key });
        assert.equal(second.body.length, 1);
        assert.equal(nextPage(second), undefined);
      });

      it('gives no next link when the page holds exactly the remaining projects', async () => {
        const { workspace } = await workspaceWithProjects(2);
        const answer = await t.request('GET', `${PROJECTS}?limit=2`, { key: workspace.key });
        assert.equal(answer.body.length, 2);
        assert.equal(answer.headers.get('link'), null);
      });

      it('accepts limit=100', async () => {
        const { workspace } = await workspaceWithProjects(2);
        const answer = await t.request('GET', `${PROJECTS}?limit=100`, { key: workspace.key });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.length, 2);
      });

      it('pages 50 projects at a time by default', async () => {
        const { workspace } = await workspaceWithProjects(51);
        const first = await t.request('GET', PROJECTS, { key: workspace.key });
        assert.equal(first.body.length, 50);
        const next = nextPage(first);
        assert.ok(next);
        const second = await t.request('GET', next, { key: workspace.key });
        assert.equal(second.body.length, 1);
        assert.equal(nextPage(second), undefined);
      });

      it('refuses limit=0', async () => {
        const answer = await t.request('GET', `${PROJECTS}?limit=0`, { key: ws.key });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.limit);
      });

      it('refuses limit=101', async () => {
        const answer = await t.request('GET', `${PROJECTS}?limit=101`, { key: ws.key });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.limit);
      });

      it('refuses a limit that is not a number', async () => {
        const answer = await t.request('GET', `${PROJECTS}?limit=ten`, { key: ws.key });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.limit);
      });

      it('refuses a cursor that did not come from a previous page', async () => {
        const answer = await t.request('GET', `${PROJECTS}?cursor=bogus`, { key: ws.key });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.cursor);
      });

      it('refuses an unknown query parameter', async () => {
        const answer = await t.request('GET', `${PROJECTS}?sort=name`, { key: ws.key });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.sort);
      });
    });

    describe('getting', () => {
      it('answers the project with zero stats when it has no images', async () => {
        const created = await createProject('Empty');
        const answer = await t.request('GET', `${PROJECTS}/${created.id}`, { key: ws.key });
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, { ...created, stats: { imageCount: 0, totalSize: 0 } });
      });

      it('counts the images of the project and sums their sizes, beyond 32 bits', async () => {
        const project = await createProject('Gallery');
        const other = await createProject('Elsewhere');
        await insertImage(project.id, 'a.png', 3_000_000_000);
        await insertImage(project.id, 'b.png', 2_500_000_000);
        await insertImage(project.id, 'c.png', 1234);
        await insertImage(other.id, 'd.png', 999);
        const answer = await t.request('GET', `${PROJECTS}/${project.id}`, { key: ws.key });
        assert.deepEqual(answer.body.stats, { imageCount: 3, totalSize: 5_500_001_234 });
      });

      it('answers 404 not_found for an unknown project id', async () => {
        const answer = await t.request('GET', `${PROJECTS}/${randomUUID()}`, { key: ws.key });
        assert.equal(answer.status, 404);
        assert.equal(answer.body.code, 'not_found');
      });

      it('answers 400 for a project id that is not a UUID', async () => {
        const answer = await t.request('GET', `${PROJECTS}/not-a-uuid`, { key: ws.key });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.projectId);
      });
    });

    describe('updating', () => {
      it('renames a project and keeps its slug', async () => {
        const created = await createProject('Old Name');
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: ws.key, body: { name: 'New Name' } });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.name, 'New Name');
        assert.equal(answer.body.slug, created.slug);
        assert.equal('stats' in answer.body, false);
      });

      it('moves updatedAt forward and keeps createdAt', async () => {
        const created = await createProject('Timed');
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: ws.key, body: { name: 'Timed 2' } });
        assert.equal(answer.body.createdAt, created.createdAt);
        assert.ok(answer.body.updatedAt >= created.updatedAt);
      });

      it('keeps the new name on a later read', async () => {
        const created = await createProject('Before');
        await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: ws.key, body: { name: 'After' } });
        const read = await t.request('GET', `${PROJECTS}/${created.id}`, { key: ws.key });
        assert.equal(read.body.name, 'After');
      });

      it('refuses a rename to an empty name', async () => {
        const created = await createProject();
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: ws.key, body: { name: '' } });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('refuses a rename to a 101-character name', async () => {
        const created = await createProject();
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, {
          key: ws.key,
          body: { name: 'n'.repeat(101) },
        });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.name);
      });

      it('sets a custom domain', async () => {
        const created = await createProject();
        const domain = uniqueDomain();
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, {
          key: ws.key,
          body: { customDomain: domain },
        });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.customDomain, domain);
        assert.equal(answer.body.name, created.name);
      });

      it('stores a custom domain in lower case', async () => {
        const created = await createProject();
        const domain = uniqueDomain();
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, {
          key: ws.key,
          body: { customDomain: domain.toUpperCase() },
        });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.customDomain, domain);
      });

      it('accepts a 253-character custom domain', async () => {
        const created = await createProject();
        const domain = longDomain(61);
        assert.equal(domain.length, 253);
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, {
          key: ws.key,
          body: { customDomain: domain },
        });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.customDomain, domain);
      });

      it('refuses a 254-character custom domain', async () => {
        const created = await createProject();
        const domain = longDomain(62);
        assert.equal(domain.length, 254);
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, {
          key: ws.key,
          body: { customDomain: domain },
        });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.ok(answer.body.details.fieldErrors.customDomain);
      });

      it('refuses a custom domain that is not a hostname', async () => {
        const created = await createProject();
        for (const customDomain of ['not a domain', 'https://img.example.com', 'localhost', '-bad.example.com', '']) {
          const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: ws.key, body: { customDomain } });
          assert.equal(answer.status, 400, customDomain);
          assert.ok(answer.body.details.fieldErrors.customDomain, customDomain);
        }
      });

      it('removes the custom domain with null', async () => {
        const created = await createProject();
        await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: ws.key, body: { customDomain: uniqueDomain() } });
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: ws.key, body: { customDomain: null } });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.customDomain, null);
      });

      it('frees a removed custom domain for another project', async () => {
        const first = await createProject();
        const second = await createProject();
        const domain = uniqueDomain();
        await t.request('PATCH', `${PROJECTS}/${first.id}`, { key: ws.key, body: { customDomain: domain } });
        await t.request('PATCH', `${PROJECTS}/${first.id}`, { key: ws.key, body: { customDomain: null } });
        const answer = await t.request('PATCH', `${PROJECTS}/${second.id}`, { key: ws.key, body: { customDomain: domain } });
        assert.equal(answer.status, 200);
      });

      it('answers 409 custom_domain_taken for a domain another project uses', async () => {
        const first = await createProject();
        const second = await createProject();
        const domain = uniqueDomain();
        await t.request('PATCH', `${PROJECTS}/${first.id}`, { key: ws.key, body: { customDomain: domain } });
        const answer = await t.request('PATCH', `${PROJECTS}/${second.id}`, { key: ws.key, body: { customDomain: domain } });
        assert.equal(answer.status, 409);
        assert.equal(answer.body.code, 'custom_domain_taken');
        const read = await t.request('GET', `${PROJECTS}/${second.id}`, { key: ws.key });
        assert.equal(read.body.customDomain, null);
      });

      it('answers 409 for a taken domain written in another case', async () => {
        const first = await createProject();
        const second = await createProject();
        const domain = uniqueDomain();
        await t.request('PATCH', `${PROJECTS}/${first.id}`, { key: ws.key, body: { customDomain: domain } });
        const answer = await t.request('PATCH', `${PROJECTS}/${second.id}`, {
          key: ws.key,
          body: { customDomain: domain.toUpperCase() },
        });
        assert.equal(answer.status, 409);
        assert.equal(answer.body.code, 'custom_domain_taken');
      });

      it('answers 409 for a domain a project of another workspace uses', async () => {
        const other = await t.createWorkspace();
        const theirs = await createProject('Theirs', other.key);
        const domain = uniqueDomain();
        await t.request('PATCH', `${PROJECTS}/${theirs.id}`, { key: other.key, body: { customDomain: domain } });
        const mine = await createProject();
        const answer = await t.request('PATCH', `${PROJECTS}/${mine.id}`, { key: ws.key, body: { customDomain: domain } });
        assert.equal(answer.status, 409);
        assert.equal(answer.body.code, 'custom_domain_taken');
      });

      it('lets a project set its own domain again', async () => {
        const created = await createProject();
        const domain = uniqueDomain();
        await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: ws.key, body: { customDomain: domain } });
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: ws.key, body: { customDomain: domain } });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.customDomain, domain);
      });

      it('refuses an empty body with 400 and a form error', async () => {
        const created = await createProject();
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: ws.key, body: {} });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
        assert.equal(answer.body.details.formErrors.length, 1);
      });

      it('refuses a change to the slug as an unknown field', async () => {
        const created = await createProject();
        const answer = await t.request('PATCH', `${PROJECTS}/${created.id}`, { key: ws.key, body: { slug: 'mine' } });
        assert.equal(answer.status, 400);
        assert.deepEqual(answer.body.details.fieldErrors.slug, ['Unknown field.']);
      });

      it('answers 404 for an unknown project id', async () => {
        const answer = await t.request('PATCH', `${PROJECTS}/${randomUUID()}`, { key: ws.key, body: { name: 'Nope' } });
        assert.equal(answer.status, 404);
        assert.equal(answer.body.code, 'not_found');
      });

      it('answers 400 for a project id that is not a UUID', async () => {
        const answer = await t.request('PATCH', `${PROJECTS}/123`, { key: ws.key, body: { name: 'Nope' } });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.projectId);
      });
    });

    describe('deleting', () => {
      it('answers { deleted: true } and the project is gone', async () => {
        const created = await createProject();
        const answer = await t.request('DELETE', `${PROJECTS}/${created.id}`, { key: ws.key });
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, { deleted: true });
        const read = await t.request('GET', `${PROJECTS}/${created.id}`, { key: ws.key });
        assert.equal(read.status, 404);
        assert.equal(read.body.code, 'not_found');
      });

      it('answers 404 when the project is deleted a second time', async () => {
        const created = await createProject();
        await t.request('DELETE', `${PROJECTS}/${created.id}`, { key: ws.key });
        const again = await t.request('DELETE', `${PROJECTS}/${created.id}`, { key: ws.key });
        assert.equal(again.status, 404);
        assert.equal(again.body.code, 'not_found');
      });

      it('leaves the project out of the list', async () => {
        const { workspace, ids } = await workspaceWithProjects(2);
        await t.request('DELETE', `${PROJECTS}/${ids[0]}`, { key: workspace.key });
        const list = await t.request('GET', PROJECTS, { key: workspace.key });
        assert.deepEqual(
          list.body.map((project: any) => project.id),
          [ids[1]],
        );
      });

      it('removes the images and presets of the project', async () => {
        const created = await createProject();
        await insertImage(created.id, 'a.png', 100);
        await insertImage(created.id, 'b.png', 200);
        await createPreset(created.id, 'thumb');
        await t.request('DELETE', `${PROJECTS}/${created.id}`, { key: ws.key });
        const db = t.server.database.db;
        const images = await db.selectFrom('images').select('id').where('project_id', '=', created.id).execute();
        const presets = await db.selectFrom('presets').select('id').where('project_id', '=', created.id).execute();
        assert.deepEqual(images, []);
        assert.deepEqual(presets, []);
      });

      it('frees its custom domain', async () => {
        const first = await createProject();
        const domain = uniqueDomain();
        await t.request('PATCH', `${PROJECTS}/${first.id}`, { key: ws.key, body: { customDomain: domain } });
        await t.request('DELETE', `${PROJECTS}/${first.id}`, { key: ws.key });
        const second = await createProject();
        const answer = await t.request('PATCH', `${PROJECTS}/${second.id}`, { key: ws.key, body: { customDomain: domain } });
        assert.equal(answer.status, 200);
      });

      it('answers 400 for a project id that is not a UUID', async () => {
        const answer = await t.request('DELETE', `${PROJECTS}/abc`, { key: ws.key });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors.projectId);
      });
    });

    describe("another workspace's project", () => {
      let theirs: any;
      let other: TestWorkspace;
      before(async () => {
        other = await t.createWorkspace();
        theirs = await createProject('Private', other.key);
      });

      it('answers 404 to GET', async () => {
        const answer = await t.request('GET', `${PROJECTS}/${theirs.id}`, { key: ws.key });
        assert.equal(answer.status, 404);
        assert.equal(answer.body.code, 'not_found');
      });

      it('answers 404 to PATCH and leaves it unchanged', async () => {
        const answer = await t.request('PATCH', `${PROJECTS}/${theirs.id}`, { key: ws.key, body: { name: 'Stolen' } });
        assert.equal(answer.status, 404);
        assert.equal(answer.body.code, 'not_found');
        const read = await t.request('GET', `${PROJECTS}/${theirs.id}`, { key: other.key });
        assert.equal(read.body.name, 'Private');
      });

      it('answers 404 to DELETE and leaves it in place', async () => {
        const answer = await t.request('DELETE', `${PROJECTS}/${theirs.id}`, { key: ws.key });
        assert.equal(answer.status, 404);
        assert.equal(answer.body.code, 'not_found');
        const read = await t.request('GET', `${PROJECTS}/${theirs.id}`, { key: other.key });
        assert.equal(read.status, 200);
      });

      it('answers 404 to listing its presets', async () => {
        const answer = await t.request('GET', `${PROJECTS}/${theirs.id}/presets`, { key: ws.key });
        assert.equal(answer.status, 404);
        assert.equal(answer.body.code, 'not_found');
      });

      it('answers the same 404 body as an id that does not exist', async () => {
        const theirsAnswer = await t.request('GET', `${PROJECTS}/${theirs.id}`, { key: ws.key });
        const unknownAnswer = await t.request('GET', `${PROJECTS}/${randomUUID()}`, { key: ws.key });
        assert.deepEqual(theirsAnswer.body, unknownAnswer.body);
      });

      it('is not in the list', async () => {
        const list = await t.request('GET', `${PROJECTS}?limit=100`, { key: ws.key });
        assert.equal(
          list.body.some((project: any) => project.id === theirs.id),
          false,
        );
      });
    });
  });
}
