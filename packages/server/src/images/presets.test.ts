import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../testing/test-dialects.ts';
import { type HttpAnswer, nextPage, startTestServer, type TestServer, type TestWorkspace } from '../testing/test-server.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function assertValidationError(answer: HttpAnswer, field?: string): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.equal(answer.body.code, 'validation_failed');
  if (field === undefined) assert.ok(answer.body.details.formErrors.length > 0, JSON.stringify(answer.body));
  else assert.ok(answer.body.details.fieldErrors[field]?.length > 0, JSON.stringify(answer.body));
}

function assertNotFound(answer: HttpAnswer): void {
  assert.equal(answer.status, 404, JSON.stringify(answer.body));
  assert.equal(answer.body.code, 'not_found');
}

for (const dialect of testDialects()) {
  describe(`presets (${dialect})`, () => {
    let t: TestServer;
    /** A business workspace, so the suite is not bound by the free plan's three projects. */
    let me: TestWorkspace;
    let other: TestWorkspace;
    let projectId: string;
    let names = 0;
    const uniqueName = (stem = 'preset') => `${stem}-${++names}`;

    const api = (method: string, path: string, body?: unknown, key = me.key) =>
      t.request(method, path, { key, ...(body === undefined ? {} : { body }) });
    const presetsOf = (project: string) => `/api/images/projects/${project}/presets`;
    const presetPath = (project: string, preset: string) => `${presetsOf(project)}/${preset}`;

    async function createProject(key = me.key): Promise<string> {
      const answer = await api('POST', '/api/images/projects', { name: 'Preset tests' }, key);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.id;
    }

    async function createPreset(project: string, transforms: Record<string, unknown> = { width: 320 }, name = uniqueName(), key = me.key) {
      const answer = await api('POST', presetsOf(project), { name, transforms }, key);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body;
    }

    before(async () => {
      t = await startTestServer(dialect);
      me = await t.createWorkspace({ plan: 'business' });
      other = await t.createWorkspace({ plan: 'business' });
      projectId = await createProject();
    });
    after(() => t.close());

    describe('list', () => {
      it('answers a bare array of the project’s presets', async () => {
        const project = await createProject();
        const a = await createPreset(project, { width: 100 });
        const b = await createPreset(project, { format: 'webp' });
        const answer = await api('GET', presetsOf(project));
        assert.equal(answer.status, 200);
        assert.ok(Array.isArray(answer.body));
        assert.deepEqual(answer.body, [a, b]);
      });

      it('answers an empty array and no Link header for a project without presets', async () => {
        const project = await createProject();
        const answer = await api('GET', presetsOf(project));
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, []);
        assert.equal(answer.headers.get('link'), null);
      });

      it('pages with limit, following the Link header to the last page', async () => {
        const project = await createProject();
        const created: string[] = [];
        for (let i = 0; i < 5; i++) created.push((await createPreset(project)).id);

        const pages: string[][] = [];
        let path: string | undefined = `${presetsOf(project)}?limit=2`;
        while (path !== undefined) {
          const answer = await api('GET', path);
          assert.equal(answer.status, 200, JSON.stringify(answer.body));
          pages.push(answer.body.map((preset: { id: string }) => preset.id));
          path = nextPage(answer);
        }
        assert.deepEqual(
          pages.map((page) => page.length),
          [2, 2, 1],
        );
        assert.deepEqual(pages.flat(), created);
      });

      it('announces no next page when the last page is exactly full', async () => {
        const project = await createProject();
        await createPreset(project);
        await createPreset(project);
        const answer = await api('GET', `${presetsOf(project)}?limit=2`);
        assert.equal(answer.body.length, 2);
        assert.equal(answer.headers.get('link'), null);
      });

      it('answers at most 50 presets when no limit is given', async () => {
        const project = await createProject();
        for (let i = 0; i < 51; i++) await createPreset(project);
        const answer = await api('GET', presetsOf(project));
        assert.equal(answer.status, 200);
        assert.equal(answer.body.length, 50);
        assert.ok(nextPage(answer));
      });

      for (const limit of ['0', '101', 'ten', '2.5']) {
        it(`rejects limit ${limit}`, async () => {
          assertValidationError(await api('GET', `${presetsOf(projectId)}?limit=${limit}`), 'limit');
        });
      }

      it('accepts limit 100', async () => {
        const answer = await api('GET', `${presetsOf(projectId)}?limit=100`);
        assert.equal(answer.status, 200);
      });

      it('rejects a cursor that no page gave', async () => {
        assertValidationError(await api('GET', `${presetsOf(projectId)}?cursor=not-a-cursor`), 'cursor');
      });

      it('rejects an unknown query parameter', async () => {
        const answer = await api('GET', `${presetsOf(projectId)}?sort=name`);
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
      });

      it('does not list presets of another project', async () => {
        const project = await createProject();
        await createPreset(projectId);
        const answer = await api('GET', presetsOf(project));
        assert.deepEqual(answer.body, []);
      });
    });

    describe('create', () => {
      it('answers 201 with id, name, transforms, createdAt and updatedAt', async () => {
        const name = uniqueName();
        const answer = await api('POST', presetsOf(projectId), { name, transforms: { width: 640, format: 'avif' } });
        assert.equal(answer.status, 201);
        assert.deepEqual(Object.keys(answer.body).sort(), ['createdAt', 'id', 'name', 'transforms', 'updatedAt']);
        assert.match(answer.body.id, UUID);
        assert.equal(answer.body.name, name);
        assert.deepEqual(answer.body.transforms, { width: 640, format: 'avif' });
        assert.match(answer.body.createdAt, ISO_MS);
        assert.equal(answer.body.updatedAt, answer.body.createdAt);
      });

      it('answers 409 preset_name_taken for a name already used in the project', async () => {
        const name = uniqueName();
        await createPreset(projectId, { width: 100 }, name);
        const answer = await api('POST', presetsOf(projectId), { name, transforms: { width: 200 } });
        assert.equal(answer.status, 409);
        assert.equal(answer.body.code, 'preset_name_taken');
      });

      it('leaves the first preset unchanged when a duplicate is refused', async () => {
        const name = uniqueName();
        const first = await createPreset(projectId, { width: 100 }, name);
        await api('POST', presetsOf(projectId), { name, transforms: { width: 200 } });
        const list = await api('GET', `${presetsOf(projectId)}?limit=100`);
        assert.deepEqual(
          list.body.filter((preset: { name: string }) => preset.name === name),
          [first],
        );
      });

      it('accepts a name that another project of the workspace uses', async () => {
        const name = uniqueName();
        await createPreset(projectId, { width: 100 }, name);
        const project = await createProject();
        const answer = await api('POST', presetsOf(project), { name, transforms: { width: 100 } });
        assert.equal(answer.status, 201);
      });

      it('accepts a name that a project of another workspace uses', async () => {
        const name = uniqueName();
        await createPreset(projectId, { width: 100 }, name);
        const theirs = await createProject(other.key);
        const answer = await api('POST', presetsOf(theirs), { name, transforms: { width: 100 } }, other.key);
        assert.equal(answer.status, 201);
      });

      it('treats names that differ only in case as different', async () => {
        const name = uniqueName('Thumb');
        await createPreset(projectId, { width: 100 }, name);
        const answer = await api('POST', presetsOf(projectId), { name: name.toLowerCase(), transforms: { width: 100 } });
        assert.equal(answer.status, 201);
      });

      it('answers 404 for an unknown project', async () => {
        assertNotFound(await api('POST', presetsOf(randomUUID()), { name: uniqueName(), transforms: { width: 1 } }));
      });

      it('answers 400 invalid_json for a body that is not JSON', async () => {
        const answer = await t.request('POST', presetsOf(projectId), {
          key: me.key,
          body: '{"name": "x",',
          headers: { 'content-type': 'application/json' },
        });
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'invalid_json');
      });

      it('answers 400 for a request without a body', async () => {
        const answer = await api('POST', presetsOf(projectId));
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
      });

      it('answers 400 for a body that is an array', async () => {
        const answer = await api('POST', presetsOf(projectId), [{ name: uniqueName(), transforms: { width: 1 } }]);
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
      });

      it('rejects an unknown top-level field', async () => {
        const answer = await api('POST', presetsOf(projectId), {
          name: uniqueName(),
          transforms: { width: 100 },
          description: 'thumbnails',
        });
        assertValidationError(answer, 'description');
      });
    });

    describe('preset names', () => {
      const accepted: Array<[string, string]> = [
        ['a single character', 'a'],
        ['64 characters', 'n'.repeat(64)],
        ['letters, digits, hyphens and underscores', 'Thumb_200-x2'],
        ['only a hyphen', '-'],
        ['only an underscore', '_'],
        ['only digits', '2024'],
      ];
      for (const [label, name] of accepted) {
        it(`accepts ${label}`, async () => {
          const project = await createProject();
          const answer = await api('POST', presetsOf(project), { name, transforms: { width: 100 } });
          assert.equal(answer.status, 201, JSON.stringify(answer.body));
          assert.equal(answer.body.name, name);
        });
      }

      const rejected: Array<[string, unknown]> = [
        ['an empty name', ''],
        ['65 characters', 'n'.repeat(65)],
        ['a space', 'my preset'],
        ['a leading space', ' thumb'],
        ['a dot', 'thumb.small'],
        ['a slash', 'thumb/small'],
        ['a trailing newline', 'thumb\n'],
        ['a percent sign', 'thumb%20'],
        ['an accented letter', 'café'],
        ['a non-Latin script', 'サムネイル'],
        ['an emoji', 'thumb🙂'],
        ['a number', 123],
        ['a boolean', true],
        ['null', null],
        ['an array', ['thumb']],
        ['an object', { value: 'thumb' }],
      ];
      for (const [label, name] of rejected) {
        it(`rejects ${label}`, async () => {
          assertValidationError(await api('POST', presetsOf(projectId), { name, transforms: { width: 100 } }), 'name');
        });
      }

      it('rejects a missing name', async () => {
        assertValidationError(await api('POST', presetsOf(projectId), { transforms: { width: 100 } }), 'name');
      });
    });

    describe('transforms object', () => {
      it('rejects missing transforms', async () => {
        assertValidationError(await api('POST', presetsOf(projectId), { name: uniqueName() }), 'transforms');
      });

      it('rejects empty transforms', async () => {
        assertValidationError(await api('POST', presetsOf(projectId), { name: uniqueName(), transforms: {} }), 'transforms');
      });

      const notObjects: Array<[string, unknown]> = [
        ['a string', 'w=100'],
        ['a number', 100],
        ['a boolean', true],
        ['null', null],
        ['an array', [{ width: 100 }]],
      ];
      for (const [label, transforms] of notObjects) {
        it(`rejects transforms that are ${label}`, async () => {
          assertValidationError(await api('POST', presetsOf(projectId), { name: uniqueName(), transforms }), 'transforms');
        });
      }

      it('rejects an unknown field inside transforms, naming it', async () => {
        const answer = await api('POST', presetsOf(projectId), {
          name: uniqueName(),
          transforms: { width: 100, crop: true },
        });
        assertValidationError(answer, 'transforms.crop');
      });

      it('rejects a CDN short name inside transforms', async () => {
        const answer = await api('POST', presetsOf(projectId), { name: uniqueName(), transforms: { w: 100 } });
        assertValidationError(answer, 'transforms.w');
      });

      it('stores every transform field together', async () => {
        const transforms = {
          width: 800,
          height: 600,
          fit: 'pad',
          format: 'webp',
          quality: 80,
          qualityMode: 'medium',
          dpr: 2,
          blur: 5,
          sharpen: 1.5,
          gravity: 'face',
          radius: 12,
          grayscale: false,
          brightness: -10,
          contrast: 20.5,
          saturation: 30,
          sepia: true,
          bg: 'ffFF00',
          rotate: 270,
          flip: 'v',
        };
        const created = await createPreset(projectId, transforms);
        assert.deepEqual(created.transforms, transforms);
        const read = await api('GET', presetPath(projectId, created.id));
        assert.deepEqual(read.body.transforms, transforms);
      });
    });

    describe('get', () => {
      it('answers the preset as it was created', async () => {
        const created = await createPreset(projectId, { width: 300, fit: 'contain' });
        const answer = await api('GET', presetPath(projectId, created.id));
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, created);
      });

      it('answers 404 for an unknown preset id', async () => {
        assertNotFound(await api('GET', presetPath(projectId, randomUUID())));
      });

      it('answers 404 for an unknown project', async () => {
        const created = await createPreset(projectId);
        assertNotFound(await api('GET', presetPath(randomUUID(), created.id)));
      });
    });

    describe('update', () => {
      it('replaces the whole transforms object, dropping fields not given', async () => {
        const created = await createPreset(projectId, { width: 100, height: 50, fit: 'cover' });
        const answer = await api('PATCH', presetPath(projectId, created.id), { transforms: { format: 'webp' } });
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body.transforms, { format: 'webp' });
      });

      it('keeps the replaced transforms on a later read', async () => {
        const created = await createPreset(projectId, { width: 100, height: 50, fit: 'cover' });
        await api('PATCH', presetPath(projectId, created.id), { transforms: { width: 200 } });
        const answer = await api('GET', presetPath(projectId, created.id));
        assert.deepEqual(answer.body.transforms, { width: 200 });
      });

      it('renames a preset and keeps its transforms', async () => {
        const created = await createPreset(projectId, { width: 100, grayscale: true });
        const name = uniqueName('renamed');
        const answer = await api('PATCH', presetPath(projectId, created.id), { name });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.name, name);
        assert.deepEqual(answer.body.transforms, { width: 100, grayscale: true });
      });

      it('changes name and transforms in one request', async () => {
        const created = await createPreset(projectId, { width: 100 });
        const name = uniqueName('both');
        const answer = await api('PATCH', presetPath(projectId, created.id), { name, transforms: { blur: 3 } });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.name, name);
        assert.deepEqual(answer.body.transforms, { blur: 3 });
      });

      it('keeps id and createdAt and moves updatedAt no earlier', async () => {
        const created = await createPreset(projectId);
        const answer = await api('PATCH', presetPath(projectId, created.id), { transforms: { height: 10 } });
        assert.equal(answer.body.id, created.id);
        assert.equal(answer.body.createdAt, created.createdAt);
        assert.match(answer.body.updatedAt, ISO_MS);
        assert.ok(answer.body.updatedAt >= created.updatedAt);
      });

      it('answers 409 preset_name_taken when renaming to a name used in the project', async () => {
        const taken = await createPreset(projectId);
        const created = await createPreset(projectId);
        const answer = await api('PATCH', presetPath(projectId, created.id), { name: taken.name });
        assert.equal(answer.status, 409);
        assert.equal(answer.body.code, 'preset_name_taken');
      });

      it('leaves the preset unchanged when a rename is refused', async () => {
        const taken = await createPreset(projectId);
        const created = await createPreset(projectId, { width: 100 });
        await api('PATCH', presetPath(projectId, created.id), { name: taken.name, transforms: { width: 999 } });
        const answer = await api('GET', presetPath(projectId, created.id));
        assert.deepEqual(answer.body, created);
      });

      it('accepts renaming a preset to its own name', async () => {
        const created = await createPreset(projectId);
        const answer = await api('PATCH', presetPath(projectId, created.id), { name: created.name });
        assert.equal(answer.status, 200);
        assert.equal(answer.body.name, created.name);
      });

      it('accepts renaming to a name used in another project', async () => {
        const project = await createProject();
        const elsewhere = await createPreset(project);
        const created = await createPreset(projectId);
        const answer = await api('PATCH', presetPath(projectId, created.id), { name: elsewhere.name });
        assert.equal(answer.status, 200);
      });

      it('accepts renaming to a name that differs from a taken one only in case', async () => {
        const taken = await createPreset(projectId, { width: 1 }, uniqueName('Hero'));
        const created = await createPreset(projectId);
        const answer = await api('PATCH', presetPath(projectId, created.id), { name: taken.name.toUpperCase() });
        assert.equal(answer.status, 200);
      });

      it('answers 400 for an empty patch', async () => {
        const created = await createPreset(projectId);
        assertValidationError(await api('PATCH', presetPath(projectId, created.id), {}));
      });

      it('answers 400 for a patch without a body', async () => {
        const created = await createPreset(projectId);
        const answer = await api('PATCH', presetPath(projectId, created.id));
        assert.equal(answer.status, 400);
        assert.equal(answer.body.code, 'validation_failed');
      });

      it('answers 400 for an invalid new name', async () => {
        const created = await createPreset(projectId);
        assertValidationError(await api('PATCH', presetPath(projectId, created.id), { name: 'has space' }), 'name');
      });

      it('answers 400 for empty transforms', async () => {
        const created = await createPreset(projectId);
        assertValidationError(await api('PATCH', presetPath(projectId, created.id), { transforms: {} }), 'transforms');
      });

      it('answers 400 for transforms set to null', async () => {
        const created = await createPreset(projectId);
        assertValidationError(await api('PATCH', presetPath(projectId, created.id), { transforms: null }), 'transforms');
      });

      it('answers 400 naming a transform out of range', async () => {
        const created = await createPreset(projectId);
        const answer = await api('PATCH', presetPath(projectId, created.id), { transforms: { width: 0 } });
        assertValidationError(answer, 'transforms.width');
      });

      it('answers 400 naming an unknown field inside transforms', async () => {
        const created = await createPreset(projectId);
        const answer = await api('PATCH', presetPath(projectId, created.id), { transforms: { zoom: 2 } });
        assertValidationError(answer, 'transforms.zoom');
      });

      it('answers 400 for an unknown top-level field', async () => {
        const created = await createPreset(projectId);
        const answer = await api('PATCH', presetPath(projectId, created.id), { createdAt: '2020-01-01T00:00:00.000Z' });
        assertValidationError(answer, 'createdAt');
      });

      it('leaves the preset unchanged when a patch is rejected', async () => {
        const created = await createPreset(projectId, { width: 100 });
        await api('PATCH', presetPath(projectId, created.id), { name: uniqueName(), transforms: { width: 0 } });
        const answer = await api('GET', presetPath(projectId, created.id));
        assert.deepEqual(answer.body, created);
      });

      it('answers 404 for an unknown preset id', async () => {
        assertNotFound(await api('PATCH', presetPath(projectId, randomUUID()), { name: uniqueName() }));
      });

      it('answers 404 for an unknown project', async () => {
        const created = await createPreset(projectId);
        assertNotFound(await api('PATCH', presetPath(randomUUID(), created.id), { name: uniqueName() }));
      });
    });

    describe('delete', () => {
      it('answers { deleted: true }', async () => {
        const created = await createPreset(projectId);
        const answer = await api('DELETE', presetPath(projectId, created.id));
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, { deleted: true });
      });

      it('answers 404 on a later read', async () => {
        const created = await createPreset(projectId);
        await api('DELETE', presetPath(projectId, created.id));
        assertNotFound(await api('GET', presetPath(projectId, created.id)));
      });

      it('answers 404 when deleting again', async () => {
        const created = await createPreset(projectId);
        await api('DELETE', presetPath(projectId, created.id));
        assertNotFound(await api('DELETE', presetPath(projectId, created.id)));
      });

      it('answers 404 when updating a deleted preset', async () => {
        const created = await createPreset(projectId);
        await api('DELETE', presetPath(projectId, created.id));
        assertNotFound(await api('PATCH', presetPath(projectId, created.id), { name: uniqueName() }));
      });

      it('removes the preset from the list', async () => {
        const project = await createProject();
        const kept = await createPreset(project);
        const gone = await createPreset(project);
        await api('DELETE', presetPath(project, gone.id));
        const answer = await api('GET', presetsOf(project));
        assert.deepEqual(answer.body, [kept]);
      });

      it('frees the name for a new preset', async () => {
        const created = await createPreset(projectId);
        await api('DELETE', presetPath(projectId, created.id));
        const answer = await api('POST', presetsOf(projectId), { name: created.name, transforms: { width: 1 } });
        assert.equal(answer.status, 201);
      });

      it('answers 404 for an unknown preset id', async () => {
        assertNotFound(await api('DELETE', presetPath(projectId, randomUUID())));
      });

      it('answers 404 for an unknown project', async () => {
        const created = await createPreset(projectId);
        assertNotFound(await api('DELETE', presetPath(randomUUID(), created.id)));
      });

      it('goes with its project when the project is deleted', async () => {
        const project = await createProject();
        const created = await createPreset(project);
        await api('DELETE', `/api/images/projects/${project}`);
        assertNotFound(await api('GET', presetPath(project, created.id)));
      });
    });

    describe('isolation', () => {
      const operations: Array<[string, string, unknown]> = [
        ['reading', 'GET', undefined],
        ['updating', 'PATCH', { transforms: { width: 9 } }],
        ['deleting', 'DELETE', undefined],
      ];

      for (const [label, method, body] of operations) {
        it(`answers 404 ${label} a preset through another project of the workspace`, async () => {
          const project = await createProject();
          const created = await createPreset(project);
          assertNotFound(await api(method, presetPath(projectId, created.id), body));
        });

        it(`answers 404 ${label} a preset of another workspace`, async () => {
          const theirs = await createProject(other.key);
          const created = await createPreset(theirs, { width: 100 }, uniqueName(), other.key);
          assertNotFound(await api(method, presetPath(theirs, created.id), body));
        });

        it(`answers 404 ${label} another workspace’s preset through one of our projects`, async () => {
          const theirs = await createProject(other.key);
          const created = await createPreset(theirs, { width: 100 }, uniqueName(), other.key);
          assertNotFound(await api(method, presetPath(projectId, created.id), body));
        });
      }

      it('leaves another workspace’s preset untouched after refused writes', async () => {
        const theirs = await createProject(other.key);
        const created = await createPreset(theirs, { width: 100 }, uniqueName(), other.key);
        await api('PATCH', presetPath(theirs, created.id), { transforms: { width: 9 } });
        await api('DELETE', presetPath(theirs, created.id));
        const answer = await api('GET', presetPath(theirs, created.id), undefined, other.key);
        assert.equal(answer.status, 200);
        assert.deepEqual(answer.body, created);
      });

      it('answers 404 listing presets of another workspace’s project', async () => {
        const theirs = await createProject(other.key);
        assertNotFound(await api('GET', presetsOf(theirs)));
      });

      it('answers 404 creating a preset in another workspace’s project', async () => {
        const theirs = await createProject(other.key);
        assertNotFound(await api('POST', presetsOf(theirs), { name: uniqueName(), transforms: { width: 1 } }));
      });

      it('answers 404 listing presets of an unknown project', async () => {
        assertNotFound(await api('GET', presetsOf(randomUUID())));
      });
    });

    describe('malformed ids', () => {
      const badIds = ['not-a-uuid', '12345', '0193b0a2-7c3e-7000-8000-00000000000g', '0193b0a27c3e70008000000000000001'];

      for (const bad of badIds) {
        it(`answers 400 for project id ${bad} when listing`, async () => {
          assertValidationError(await api('GET', presetsOf(bad)), 'projectId');
        });
      }

      it('answers 400 for a malformed project id when creating', async () => {
        const answer = await api('POST', presetsOf('not-a-uuid'), { name: uniqueName(), transforms: { width: 1 } });
        assertValidationError(answer, 'projectId');
      });

      const methods: Array<[string, unknown]> = [
        ['GET', undefined],
        ['PATCH', { name: 'x' }],
        ['DELETE', undefined],
      ];
      for (const [method, body] of methods) {
        it(`answers 400 for a malformed preset id on ${method}`, async () => {
          assertValidationError(await api(method, presetPath(projectId, 'not-a-uuid'), body), 'presetId');
        });

        it(`answers 400 for a malformed project id on ${method}`, async () => {
          assertValidationError(await api(method, presetPath('not-a-uuid', randomUUID()), body), 'projectId');
        });
      }
    });

    describe('access', () => {
      it('answers 401 without an API key', async () => {
        const answer = await t.request('GET', presetsOf(projectId), { key: null });
        assert.equal(answer.status, 401);
        assert.equal(answer.body.code, 'unauthorized');
        assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
      });

      it('answers 401 for an unknown API key', async () => {
        const answer = await t.request('GET', presetsOf(projectId), { key: 'loupe_unknown' });
        assert.equal(answer.status, 401);
      });

      it('lets a viewer list presets', async () => {
        const viewer = await t.createMemberKey(me.workspaceId, 'viewer');
        const answer = await api('GET', presetsOf(projectId), undefined, viewer);
        assert.equal(answer.status, 200);
      });

      it('answers 403 to a viewer creating a preset', async () => {
        const viewer = await t.createMemberKey(me.workspaceId, 'viewer');
        const answer = await api('POST', presetsOf(projectId), { name: uniqueName(), transforms: { width: 1 } }, viewer);
        assert.equal(answer.status, 403);
        assert.equal(answer.body.code, 'forbidden');
      });

      it('lets a member create a preset', async () => {
        const member = await t.createMemberKey(me.workspaceId, 'member');
        const answer = await api('POST', presetsOf(projectId), { name: uniqueName(), transforms: { width: 1 } }, member);
        assert.equal(answer.status, 201);
      });
    });
  });
}
