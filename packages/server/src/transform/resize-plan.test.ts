import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coverCropAround, padOffsets, planResize } from './resize-plan.ts';

describe('resize plan', () => {
  it('multiplies the box by dpr', () => {
    assert.deepEqual(planResize({ width: 100, height: 50, dpr: 3 }), { width: 300, height: 150, fit: 'cover', gravity: 'center' });
  });
  it('treats crop as cover', () => {
    assert.equal(planResize({ width: 100, height: 50, fit: 'crop' })?.fit, 'cover');
  });
  it('has nothing to do without width or height, dpr or not', () => {
    assert.equal(planResize({ dpr: 2, fit: 'pad' }), undefined);
  });
});

describe('face crop region', () => {
  const source = { width: 600, height: 400 };
  const box = { width: 200, height: 200 };
  it('centres the face when the edges allow', () => {
    assert.deepEqual(coverCropAround(source, { x: 300, y: 200 }, box), { left: 100, top: 0, width: 400, height: 400 });
  });
  it('stops at the edge when the face is near it', () => {
    assert.deepEqual(coverCropAround(source, { x: 590, y: 10 }, box), { left: 200, top: 0, width: 400, height: 400 });
  });
  it('moves along the long side of a tall source', () => {
    const tall = { width: 400, height: 1000 };
    assert.deepEqual(coverCropAround(tall, { x: 200, y: 100 }, box), { left: 0, top: 0, width: 400, height: 400 });
    assert.deepEqual(coverCropAround(tall, { x: 200, y: 600 }, box), { left: 0, top: 400, width: 400, height: 400 });
  });
});

describe('pad band', () => {
  const image = { width: 300, height: 200 };
  const box = { width: 300, height: 300 };
  it('centres the picture by default', () => {
    assert.deepEqual(padOffsets(image, box, 'center'), { top: 50, bottom: 50, left: 0, right: 0 });
  });
  it('puts the picture on the gravity side', () => {
    assert.deepEqual(padOffsets(image, box, 'top-left'), { top: 0, bottom: 100, left: 0, right: 0 });
    assert.deepEqual(padOffsets(image, box, 'bottom'), { top: 100, bottom: 0, left: 0, right: 0 });
  });
  it('centres for auto and face, which have nothing to crop', () => {
    assert.deepEqual(padOffsets({ width: 101, height: 300 }, box, 'face'), { top: 0, bottom: 0, left: 99, right: 100 });
  });
});
