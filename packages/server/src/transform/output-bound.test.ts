import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoupeError } from '@loupe/contract';
import sharp from 'sharp';
import { assertOutputWithinBound, assertPresetWithinBound, outputSize, type SizeTransforms } from './output-bound.ts';
import { options, testImage } from './test-pixels.ts';
import { transformImage } from './transform-pipeline.ts';

/** What the pipeline really makes: the bound must be computed on the same size. */
async function madeSize(input: Buffer, transforms: SizeTransforms) {
  const output = await transformImage(input, { ...transforms, format: 'jpeg' }, options);
  return { width: output.width, height: output.height };
}

describe('output size, computed before decoding, is what the pipeline makes', () => {
  const cases: SizeTransforms[] = [
    {},
    { rotate: 90 },
    { width: 300 },
    { height: 200, dpr: 2 },
    { width: 300, height: 100 },
    { width: 300, height: 100, fit: 'crop', gravity: 'auto' },
    { width: 300, height: 100, fit: 'fill' },
    { width: 300, height: 100, fit: 'pad' },
    { width: 300, height: 100, fit: 'contain' },
    { width: 300, height: 100, fit: 'contain', rotate: 270 },
    { width: 2000, height: 2000, fit: 'contain' },
    { width: 2000, height: 2000, fit: 'scale-down' },
    { width: 100, height: 2000, fit: 'scale-down', dpr: 3 },
    { width: 700, fit: 'fill', rotate: 90 },
    { width: 1500, fit: 'scale-down' },
  ];
  for (const name of ['hubble_deep_field.jpg', 'rocket.jpg']) {
    for (const transforms of cases) {
      it(`${name} ${JSON.stringify(transforms)}`, async () => {
        const input = testImage(name);
        const { width, height } = await sharp(input).metadata();
        assert.deepEqual(outputSize(transforms, { width, height }), await madeSize(input, transforms));
      });
    }
  }
});

describe('output size under either enlargement is what the pipeline makes', () => {
  const boxes = [{ width: 300, height: 100 }, { width: 500, height: 500 }, { width: 500 }, { height: 300 }];
  const rocket = testImage('rocket.jpg');
  for (const fit of ['cover', 'crop', 'contain', 'fill', 'scale-down', 'pad'] as const) {
    for (const enlarge of ['allow', 'never'] as const) {
      it(`rocket.jpg (640×427) ${fit} enlarge=${enlarge}, every box at dpr 1–3`, async () => {
        for (const box of boxes) {
          for (const dpr of [1, 2, 3]) {
            const transforms: SizeTransforms = { ...box, dpr, fit, enlarge };
            assert.deepEqual(
              outputSize(transforms, { width: 640, height: 427 }),
              await madeSize(rocket, transforms),
              JSON.stringify(transforms),
            );
          }
        }
      });
    }
  }
  it('turns the original before limiting a box to it, an EXIF-oriented one included', async () => {
    // Stored sideways (480×320) with orientation 6: displayed 320×480.
    const sideways = await sharp(testImage('rocket.jpg'))
      .resize(480, 320, { fit: 'fill' })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    for (const transforms of [
      { width: 800, height: 400, enlarge: 'never' },
      { width: 800, height: 400, enlarge: 'never', rotate: 90 },
      { width: 800, height: 400, fit: 'fill', enlarge: 'never', rotate: 270 },
      { width: 900, fit: 'contain', enlarge: 'never' },
      { width: 900, height: 900, fit: 'pad', enlarge: 'never', rotate: 90 },
    ] as const) {
      assert.deepEqual(
        outputSize(transforms, { width: 320, height: 480 }),
        await madeSize(sideways, transforms),
        JSON.stringify(transforms),
      );
    }
  });
  it('limits a box to one frame of an animated GIF (14×25, 24 frames)', async () => {
    const gif = testImage('no_time_for_that_tiny.gif');
    for (const [transforms, expected] of [
      [
        { width: 100, height: 100, enlarge: 'never' },
        { width: 14, height: 14 },
      ],
      [
        { width: 100, height: 50, fit: 'fill', enlarge: 'never' },
        { width: 14, height: 7 },
      ],
    ] as const) {
      assert.deepEqual(outputSize(transforms, { width: 14, height: 25 }), expected);
      assert.deepEqual(await madeSize(gif, transforms), expected);
      const animated = await transformImage(gif, { ...transforms, format: 'webp' }, options);
      assert.deepEqual([animated.width, animated.height, animated.frames], [expected.width, expected.height, 24]);
    }
  });
  it('makes the same sizes from the larger photo, hubble_deep_field.jpg (1000×872)', async () => {
    const hubble = testImage('hubble_deep_field.jpg');
    for (const transforms of [
      { width: 600, height: 600, dpr: 2, enlarge: 'never' },
      { width: 1200, height: 300, fit: 'fill', enlarge: 'never' },
      { width: 700, height: 700, fit: 'pad', dpr: 3, enlarge: 'never' },
      { width: 400, dpr: 3, fit: 'contain', enlarge: 'never' },
    ] as const) {
      assert.deepEqual(
        outputSize(transforms, { width: 1000, height: 872 }),
        await madeSize(hubble, transforms),
        JSON.stringify(transforms),
      );
    }
  });
});

describe('output bound', () => {
  const tooLarge = (limit: number, width: number, height: number) => (error: unknown) =>
    error instanceof LoupeError &&
    error.code === 'output_too_large' &&
    error.status === 400 &&
    error.extra.limit === limit &&
    JSON.stringify(error.extra.requested) === JSON.stringify({ width, height, pixels: width * height });
  const photo = { width: 1000, height: 872 };
  const strip = { width: 10, height: 10_000 };

  it('refuses the 604 Mpx of w=8189&h=8192&dpr=3&fit=fill, naming the limit and the size', () => {
    assert.throws(
      () => assertOutputWithinBound({ width: 8189, height: 8192, dpr: 3, fit: 'fill' }, photo, 40_000_000),
      tooLarge(40_000_000, 24567, 24576),
    );
  });
  it('refuses a cover, a pad and a crop of a huge box, whatever the original', () => {
    for (const fit of ['cover', 'pad', 'crop'] as const) {
      assert.throws(
        () => assertOutputWithinBound({ width: 8192, height: 8192, fit }, { width: 1, height: 1 }, 40_000_000),
        tooLarge(40_000_000, 8192, 8192),
      );
    }
  });
  it('refuses a contain whose box the photo fills, allows one a thin strip stays small in', () => {
    assert.throws(
      () => assertOutputWithinBound({ width: 8192, height: 8192, dpr: 3, fit: 'contain' }, photo, 40_000_000),
      tooLarge(40_000_000, 24576, 21430),
    );
    assert.doesNotThrow(() =>
      assertOutputWithinBound({ width: 8192, height: 8192, fit: 'contain' }, { width: 1, height: 8192 }, 40_000_000),
    );
  });
  it('allows scale-down of any box: it never enlarges', () => {
    assert.doesNotThrow(() => assertOutputWithinBound({ width: 8192, height: 8192, dpr: 3, fit: 'scale-down' }, photo, 40_000_000));
  });
  it('allows a huge cover or fill box that may not enlarge: the original bounds it', () => {
    for (const fit of ['cover', 'crop', 'fill'] as const) {
      assert.doesNotThrow(() => assertOutputWithinBound({ width: 8192, height: 8192, dpr: 3, fit, enlarge: 'never' }, photo, 40_000_000));
    }
  });
  it('still refuses a huge pad box under enlarge=never: the band fills it', () => {
    assert.throws(
      () => assertOutputWithinBound({ width: 8192, height: 8192, fit: 'pad', enlarge: 'never' }, photo, 40_000_000),
      tooLarge(40_000_000, 8192, 8192),
    );
  });
  it('counts the side that follows the aspect ratio when one side is given', () => {
    assert.throws(() => assertOutputWithinBound({ width: 8192 }, strip, 40_000_000), tooLarge(40_000_000, 8192, 8192000));
    assert.throws(() => assertOutputWithinBound({ height: 8192, rotate: 90 }, strip, 40_000_000), tooLarge(40_000_000, 8192000, 8192));
  });
  it('bounds a format change of a large original too', () => {
    assert.throws(() => assertOutputWithinBound({}, { width: 10_000, height: 9_000 }, 40_000_000), tooLarge(40_000_000, 10_000, 9_000));
  });
  it('refuses a preset that makes its box above the limit, on its field', () => {
    assert.throws(
      () => assertPresetWithinBound({ width: 8192, height: 8192, dpr: 3 }, 40_000_000, 'transforms'),
      (error: unknown) => tooLarge(40_000_000, 24576, 24576)(error) && (error as LoupeError).details?.fieldErrors.transforms?.length === 1,
    );
  });
  it('refuses a preset that leaves enlarge to the project, or pads, above the limit', () => {
    for (const transforms of [
      { width: 8192, height: 8192, dpr: 3, fit: 'fill' },
      { width: 8192, height: 8192, dpr: 3, fit: 'fill', enlarge: 'allow' },
      { width: 8192, height: 8192, dpr: 3, fit: 'pad', enlarge: 'never' },
    ] as const) {
      assert.throws(() => assertPresetWithinBound(transforms, 40_000_000, 'transforms'), tooLarge(40_000_000, 24576, 24576));
    }
  });
  it('saves a preset whose size depends on the original', () => {
    for (const transforms of [
      { width: 8192, height: 8192, dpr: 3, fit: 'contain' },
      { width: 8192, dpr: 3 },
      { height: 8192, fit: 'fill' },
      { width: 8192, height: 8192, dpr: 3, fit: 'cover', enlarge: 'never' },
      { width: 8192, height: 8192, dpr: 3, fit: 'fill', enlarge: 'never' },
    ] as const) {
      assert.doesNotThrow(() => assertPresetWithinBound(transforms, 40_000_000, 'transforms'), JSON.stringify(transforms));
    }
  });
});
