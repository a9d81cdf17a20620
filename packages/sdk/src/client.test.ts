import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operations } from '@loupe/contract';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { createClient, LoupeError, type LoupeClient } from './index.ts';

describe('SDK client against the real server', () => {
  let t: TestServer;
  let loupe: LoupeClient;
  before(async () => {
    t = await startTestServer('sqlite');
    loupe = createClient({ baseUrl: t.url, apiKey: t.owner.key, workspaceId: t.owner.workspaceId });
  });
  after(() => t.close());

  it('has one method per registry operation', () => {
    assert.deepEqual(Object.keys(loupe).sort(), operations.map((o) => o.id).sort());
  });

  it('creates a project and a preset, and reads them back', async () => {
    const project = await loupe.createImageProject({ body: { name: 'SDK' } });
    const preset = await loupe.createPreset({ projectId: project.id, body: { name: 'thumb', transforms: { width: 120 } } });
    assert.deepEqual(await loupe.getPreset({ projectId: project.id, presetId: preset.id }), preset);
    assert.deepEqual(
      (await loupe.listPresets({ projectId: project.id, limit: 10 })).map((p) => p.name),
      ['thumb'],
    );
  });

  it('throws a LoupeError carrying status, code and details', async () => {
    const project = await loupe.createImageProject({ body: { name: 'Errors' } });
    await assert.rejects(
      loupe.createPreset({ projectId: project.id, body: { name: 'bad', transforms: { width: 0 } } }),
      (error: unknown) =>
        error instanceof LoupeError &&
        error.status === 400 &&
        error.code === 'validation_failed' &&
        'transforms.width' in (error.details?.fieldErrors ?? {}),
    );
  });

  it('sends the workspace header on workspace API calls', async () => {
    const created = await loupe.createApiKey({ body: { name: 'from sdk', scopes: ['images:read'] } });
    assert.match(created.key, /^loupe_/);
  });
});
