import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coverCropAround, limitToOriginal, padOffsets, planResize, type ResizePlan } from './resize-plan.ts';

describe('resize plan', () => {
  it('multiplies the box by dpr', () => {
    assert.deepEqual(planResize({ width: 100, height: 50, dpr: 3 }), {
      width: 300,
      height: 150,
      fit: 'cover',
      gravity: 'center',
      enlarge: true,
    });
  });
  it('treats crop as cover', () => {
    assert.equal(planResize({ width: 100, height: 50, fit: 'crop' })?.fit, 'cover');
  });
  it('has nothing to do without width or height, dpr or not', () => {
    assert.equal(planResize({ dpr: 2, fit: 'pad' }), undefined);
  });
  it('treats scale-down as contain that never enlarges, whatever enlarge says', () => {
    assert.deepEqual(planResize({ width: 10, fit: 'scale-down', enlarge: 'allow' }), {
      width: 10,
      height: undefined,
      fit: 'contain',
      gravity: 'center',
      enlarge: false,
    });
  });
  it('allows enlarging unless told never', () => {
    assert.equal(planResize({ width: 10 })?.enlarge, true);
    assert.equal(planResize({ width: 10, enlarge: 'never' })?.enlarge, false);
  });
});

describe('a box that may not enlarge', () => {
  const never = (width: number, height: number, fit: ResizePlan['fit'] = 'cover'): ResizePlan => ({
    width,
    height,
    fit,
    gravity: 'center',
    enlarge: false,
  });
  const original = { width: 400, height: 300 };
  it('keeps its shape and shrinks until the original covers it: 800×800 of 400×300 is 300×300', () => {
    assert.deepEqual(limitToOriginal(never(800, 800), original), never(300, 300));
    assert.deepEqual(limitToOriginal(never(1000, 300, 'fill'), original), never(400, 120, 'fill'));
  });
  it('is left as it is when the original already covers it', () => {
    assert.deepEqual(limitToOriginal(never(400, 300), original), never(400, 300));
    assert.deepEqual(limitToOriginal(never(100, 50), original), never(100, 50));
  });
  it('keeps pad and contain boxes: only the picture inside stops at the original', () => {
    assert.deepEqual(limitToOriginal(never(800, 800, 'pad'), original), never(800, 800, 'pad'));
    assert.deepEqual(limitToOriginal(never(800, 800, 'contain'), original), never(800, 800, 'contain'));
  });
  it('never rounds a side to nothing or past the original', () => {
    assert.deepEqual(limitToOriginal(never(8192, 1), { width: 3, height: 3 }), never(3, 1));
    assert.deepEqual(limitToOriginal(never(3, 3), { width: 1, height: 1 }), never(1, 1));
  });
  it('is left as it is when enlarging is allowed', () => {
    const allowed = { ...never(800, 800), enlarge: true };
    assert.deepEqual(limitToOriginal(allowed, original), allowed);
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
