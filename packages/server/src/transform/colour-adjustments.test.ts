import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { colourAdjustment } from './colour-adjustments.ts';
import { decode, luma, mean, options, type Pixels, pixel, standardDeviation, synthetic, testImage } from './test-pixels.ts';
import { type ResolvedTransforms, transformImage } from './transform-pipeline.ts';

const chelsea = testImage('chelsea.png'); // 451×300, a ginger cat: plenty of colour

async function adjusted(input: Buffer, transforms: Partial<ResolvedTransforms>): Promise<Pixels> {
  return decode((await transformImage(input, { format: 'png', width: 200, ...transforms }, options)).data);
}

function everyPixel(image: Pixels, check: (colour: number[]) => boolean): boolean {
  for (let y = 0; y < image.height; y++) for (let x = 0; x < image.width; x++) if (!check(pixel(image, x, y))) return false;
  return true;
}

describe('colour adjustments', () => {
  it('zero everywhere is no adjustment at all', () => {
    assert.equal(colourAdjustment({ brightness: 0, contrast: 0, saturation: 0, grayscale: false, sepia: false }), undefined);
  });
  it('brightness +50 raises mean luminance', async () => {
    const plain = mean(luma(await adjusted(chelsea, {})));
    assert.ok(mean(luma(await adjusted(chelsea, { brightness: 50 }))) > plain + 20);
  });
  it('brightness −50 lowers mean luminance', async () => {
    const plain = mean(luma(await adjusted(chelsea, {})));
    assert.ok(mean(luma(await adjusted(chelsea, { brightness: -50 }))) < plain - 20);
  });
  it('brightness −100 is black', async () => {
    assert.ok(everyPixel(await adjusted(chelsea, { brightness: -100 }), ([r, g, b]) => r + g + b === 0));
  });
  it('contrast +50 raises the spread of luminance', async () => {
    const plain = standardDeviation(luma(await adjusted(chelsea, {})));
    assert.ok(standardDeviation(luma(await adjusted(chelsea, { contrast: 50 }))) > plain * 1.3);
  });
  it('contrast −100 is flat mid-grey', async () => {
    assert.ok(everyPixel(await adjusted(chelsea, { contrast: -100 }), ([r, g, b]) => r === 128 && g === 128 && b === 128));
  });
  it('saturation −100 leaves equal channels', async () => {
    assert.ok(everyPixel(await adjusted(chelsea, { saturation: -100 }), ([r, g, b]) => r === g && g === b));
  });
  it('saturation +50 spreads the channels apart', async () => {
    const spread = (image: Pixels) =>
      mean(
        Float64Array.from({ length: image.width * image.height }, (_, i) => {
          const [r, g, b] = pixel(image, i % image.width, Math.floor(i / image.width));
          return Math.max(r, g, b) - Math.min(r, g, b);
        }),
      );
    assert.ok(spread(await adjusted(chelsea, { saturation: 50 })) > spread(await adjusted(chelsea, {})) * 1.2);
  });
  it('grayscale gives R = G = B', async () => {
    assert.ok(everyPixel(await adjusted(chelsea, { grayscale: true }), ([r, g, b]) => r === g && g === b));
  });
  it('sepia turns grey into warm tones, R > G > B', async () => {
    const grey = await synthetic(20, 20, () => [128, 128, 128]);
    const [r, g, b] = pixel(await adjusted(grey, { sepia: true, width: 20 }), 10, 10);
    assert.ok(r > g && g > b, `${r} ${g} ${b}`);
  });
  it('sepia after grayscale still tints: grayscale comes first', async () => {
    const [r, g, b] = pixel(await adjusted(chelsea, { grayscale: true, sepia: true }), 100, 60);
    assert.ok(r > g && g > b, `${r} ${g} ${b}`);
  });
});
