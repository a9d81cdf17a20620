import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decode, near, options, type Pixels, pixel, testImage } from './test-pixels.ts';
import { type ResolvedTransforms, transformImage } from './transform-pipeline.ts';

const rocket = testImage('rocket.jpg');

async function rounded(transforms: Partial<ResolvedTransforms>): Promise<Pixels> {
  return decode((await transformImage(rocket, { format: 'png', width: 200, height: 100, ...transforms }, options)).data);
}

const alpha = (image: Pixels, x: number, y: number) => pixel(image, x, y)[3];

describe('radius', () => {
  it('leaves the corners of a PNG transparent and its centre opaque', async () => {
    const image = await rounded({ radius: 20 });
    assert.equal(image.channels, 4);
    for (const [x, y] of [
      [0, 0],
      [199, 0],
      [0, 99],
      [199, 99],
    ])
      assert.equal(alpha(image, x, y), 0, `${x},${y}`);
    assert.equal(alpha(image, 100, 50), 255);
  });
  it('is in output pixels: the edge just past the radius is opaque', async () => {
    const image = await rounded({ radius: 20 });
    assert.equal(alpha(image, 25, 0), 255);
    assert.equal(alpha(image, 0, 25), 255);
  });
  it('max makes a circle on a square: corners transparent, edge midpoints opaque', async () => {
    const image = await rounded({ radius: 'max', height: 200 });
    assert.equal(alpha(image, 0, 0), 0);
    assert.equal(alpha(image, 199, 199), 0);
    assert.equal(alpha(image, 20, 20), 0, 'inside a 30 px corner but outside the circle');
    for (const [x, y] of [
      [100, 0],
      [0, 100],
      [199, 100],
      [100, 199],
    ])
      assert.ok(alpha(image, x, y) > 200, `${x},${y}`);
  });
  it('fills the corners of a JPEG with bg', async () => {
    const answer = await transformImage(rocket, { format: 'jpeg', width: 200, height: 100, radius: 30, bg: '00ff00' }, options);
    const image = await decode(answer.data);
    assert.equal(image.channels, 3);
    assert.ok(near(pixel(image, 1, 1), [0, 255, 0], 12), `${pixel(image, 1, 1)}`);
    assert.ok(!near(pixel(image, 100, 50), [0, 255, 0], 12));
  });
  it('fills the corners of a JPEG with white when there is no bg', async () => {
    const image = await decode((await transformImage(rocket, { format: 'jpeg', width: 200, height: 100, radius: 30 }, options)).data);
    assert.ok(near(pixel(image, 1, 1), [255, 255, 255], 12), `${pixel(image, 1, 1)}`);
  });
  it('rounds the padded box, not the picture inside it', async () => {
    const image = await rounded({ fit: 'pad', width: 300, height: 300, bg: '0000ff', radius: 40 });
    assert.equal(alpha(image, 0, 0), 0);
    assert.deepEqual(pixel(image, 150, 2), [0, 0, 255, 255]);
  });
});
