import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { transformNames } from '@loupe/contract';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Every transform parameter of spec §2, at the edges of its range and with every allowed
 * value. DESIGN.md §7 replaces the spec's gravity "corners" with the four corner values.
 */
const accepted: Record<string, unknown[]> = {
  width: [1, 8192],
  height: [1, 8192],
  fit: ['cover', 'contain', 'fill', 'scale-down', 'crop', 'pad'],
  format: ['webp', 'avif', 'jpeg', 'png', 'jxl', 'gif', 'auto'],
  quality: [1, 100],
  qualityMode: ['high', 'medium', 'low'],
  dpr: [1, 2, 3],
  blur: [1, 250],
  sharpen: [0, 10, 0.5, 9.99],
  gravity: ['auto', 'face', 'center', 'top', 'bottom', 'left', 'right', 'top-left', 'top-right', 'bottom-left', 'bottom-right'],
  radius: [1, 9999, 'max'],
  grayscale: [true, false],
  brightness: [-100, 0, 100],
  contrast: [-100, 0, 100, 12.5, -99.5],
  saturation: [-100, 0, 100],
  sepia: [true, false],
  bg: ['000000', 'ffffff', 'FFFFFF', 'a1B2c3'],
  rotate: [90, 180, 270],
  flip: ['h', 'v'],
  frame: [1, 10000],
  overlay: ['logo.png', 'brand/marks/logo 2.webp', '2026'],
  overlayGravity: ['center', 'top', 'bottom', 'left', 'right', 'top-left', 'top-right', 'bottom-left', 'bottom-right'],
  overlayX: [-8192, 0, 1, 8192],
  overlayY: [-8192, 0, 1, 8192],
  overlayScale: [1, 100],
  overlayOpacity: [0, 1, 100],
  overlayTile: [true, false],
  overlaySpacing: [0, 1, 8192],
};

const rejected: Record<string, unknown[]> = {
  width: [0, 8193, -1, 10.5, '100', true, null, [100]],
  height: [0, 8193, -1, 10.5, '100', true, null],
  fit: ['stretch', 'Cover', 'scale_down', '', 1, null],
  format: ['jpg', 'GIF', 'WEBP', '', 1, null],
  quality: [0, 101, 50.5, '80', null],
  qualityMode: ['ultra', 'HIGH', '', 1, null],
  dpr: [0, 4, 1.5, '2', null],
  blur: [0, 251, 2.5, '5', null],
  sharpen: [-1, -0.1, 11, 10.1, '1', true, null],
  gravity: ['corners', 'middle', 'north', 'Top', 'top_left', 'topleft', '', 1, null],
  radius: [0, 10000, -1, 2.5, '10', 'MAX', 'circle', '', true, null],
  grayscale: [1, 0, 'true', null],
  brightness: [-101, 101, 1.5, '10', null],
  contrast: [-101, 101, -100.5, 100.5, '10', null],
  saturation: [-101, 101, 1.5, '10', null],
  sepia: [1, 0, 'true', null],
  bg: ['#ff0000', '#fff', 'fffff', 'fffffff', 'gggggg', 'ff 000', '', 123456, null],
  rotate: [0, 45, 360, -90, 90.5, '90', null],
  flip: ['hv', 'x', 'H', 'horizontal', '', true, null],
  frame: [0, -1, 10001, 1.5, '2', true, null],
  overlay: ['', '/logo.png', 'logo.png/', 'a//b.png', '../logo.png', 'a/./b.png', 'a\\b.png', 'a?.png', 'x'.repeat(1025), 12, null],
  overlayGravity: ['auto', 'face', 'centre', 'Top', '', 1, null],
  overlayX: [-8193, 8193, 1.5, '10', null],
  overlayY: [-8193, 8193, 0.5, '10', null],
  overlayScale: [0, 101, 50.5, '50', null],
  overlayOpacity: [-1, 101, 0.5, '50', null],
  overlayTile: [1, 0, 'true', null],
  overlaySpacing: [-1, 8193, 2.5, '10', null],
};

const label = (value: unknown) => JSON.stringify(value);

for (const dialect of testDialects()) {
  describe(`transform validation (${dialect})`, () => {
    let t: TestServer;
    let presets: string;
    let names = 0;

    before(async () => {
      t = await startTestServer(dialect);
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Transform validation' } });
      assert.equal(project.status, 201, JSON.stringify(project.body));
      presets = `/api/images/projects/${project.body.id}/presets`;
    });
    after(() => t.close());

    const create = (transforms: unknown, name = `case-${++names}`) => t.request('POST', presets, { body: { name, transforms } });

    for (const [field, values] of Object.entries(accepted)) {
      for (const value of values) {
        it(`${field} ${label(value)} is accepted`, async () => {
          const created = await create({ [field]: value });
          assert.equal(created.status, 201, JSON.stringify(created.body));
          assert.deepEqual(created.body.transforms, { [field]: value });
          const read = await t.request('GET', `${presets}/${created.body.id}`);
          assert.equal(read.status, 200);
          assert.deepEqual(read.body.transforms, { [field]: value });
        });
      }
    }

    for (const [field, values] of Object.entries(rejected)) {
      for (const value of values) {
        it(`${field} ${label(value)} is rejected`, async () => {
          const answer = await create({ [field]: value });
          assert.equal(answer.status, 400, JSON.stringify(answer.body));
          assert.equal(answer.body.code, 'validation_failed');
          assert.deepEqual(Object.keys(answer.body.details.fieldErrors), [`transforms.${field}`]);
          assert.ok(answer.body.details.fieldErrors[`transforms.${field}`].length > 0);
        });
      }
    }

    it('a valid field beside a rejected one does not save the preset', async () => {
      const name = `case-${++names}`;
      const refused = await create({ width: 100, height: 0 }, name);
      assert.equal(refused.status, 400);
      const retried = await create({ width: 100 }, name);
      assert.equal(retried.status, 201);
    });

    it('names every rejected field of one request', async () => {
      const answer = await create({ width: 0, rotate: 45, bg: '#000000' });
      assert.equal(answer.status, 400);
      assert.deepEqual(Object.keys(answer.body.details.fieldErrors).sort(), ['transforms.bg', 'transforms.rotate', 'transforms.width']);
    });

    it('covers every transform field of spec §2, and the contract has no other', () => {
      const fields = [
        'width',
        'height',
        'fit',
        'format',
        'quality',
        'qualityMode',
        'dpr',
        'blur',
        'sharpen',
        'gravity',
        'radius',
        'grayscale',
        'brightness',
        'contrast',
        'saturation',
        'sepia',
        'bg',
        'rotate',
        'flip',
        // Issue #26: a poster frame of an animation.
        'frame',
        'overlay',
        'overlayGravity',
        'overlayX',
        'overlayY',
        'overlayScale',
        'overlayOpacity',
        'overlayTile',
        'overlaySpacing',
      ];
      assert.deepEqual(Object.keys(accepted), fields);
      assert.deepEqual(Object.keys(rejected), fields);
      assert.deepEqual([...transformNames].sort(), [...fields].sort());
    });
  });
}
