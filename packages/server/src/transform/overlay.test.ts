import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { overlayPosition, placeOverlay } from './overlay.ts';
import { timeBudget } from './raw-image.ts';
import { BLUE, near, pixel, RED, synthetic } from './test-pixels.ts';

const result = { width: 200, height: 100 };
const overlay = { width: 20, height: 10 };

describe('overlayPosition', () => {
  for (const [gravity, left, top] of [
    ['top-left', 7, 3],
    ['top', 97, 3],
    ['top-right', 173, 3],
    ['left', 7, 48],
    ['center', 97, 48],
    ['right', 173, 48],
    ['bottom-left', 7, 87],
    ['bottom', 97, 87],
    ['bottom-right', 173, 87],
  ] as const) {
    it(`${gravity} with x 7, y 3 puts the corner at ${left},${top}`, () => {
      assert.deepEqual(overlayPosition(result, overlay, { overlayGravity: gravity, overlayX: 7, overlayY: 3 }), { left, top });
    });
  }

  it('centres without gravity or offsets', () => {
    assert.deepEqual(overlayPosition(result, overlay, {}), { left: 90, top: 45 });
  });
});

describe('placeOverlay tiling', () => {
  const blue = async () => {
    const { data, info } = await sharp(await synthetic(200, 100, () => BLUE))
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: 3 as const };
  };

  it('aligns the grid on the gravity: bottom-right puts a tile flush in that corner, the gap away from it', async () => {
    const red = await synthetic(20, 20, () => RED);
    const image = await placeOverlay(
      await blue(),
      red,
      { overlay: 'red.png', overlayTile: true, overlaySpacing: 10, overlayGravity: 'bottom-right' },
      1e7,
      timeBudget(30),
    );
    assert.equal(image.channels, 3);
    // Tiles of 30 px from the right edge: red columns 180–199, 150–169, …; gap 170–179.
    for (const [x, y] of [
      [199, 99],
      [180, 80],
      [160, 99],
      [199, 50],
    ] as const)
      assert.ok(near(pixel(image, x, y), RED), `tile at ${x},${y}`);
    for (const [x, y] of [
      [175, 99],
      [199, 75],
    ] as const)
      assert.ok(near(pixel(image, x, y), BLUE), `gap at ${x},${y}`);
  });

  it('keeps spacing within the result when the tile and its gap are wider than it', async () => {
    const image = await placeOverlay(
      await blue(),
      await synthetic(150, 20, () => RED),
      { overlay: 'wide.png', overlayTile: true, overlaySpacing: 8192, overlayGravity: 'top-left' },
      1e7,
      timeBudget(30),
    );
    assert.deepEqual([image.width, image.height], [200, 100]);
    assert.ok(near(pixel(image, 0, 0), RED) && near(pixel(image, 160, 10), BLUE) && near(pixel(image, 10, 50), BLUE));
  });
});
