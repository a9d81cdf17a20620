import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { animationFromPhoto, decodeFrames, markerColour } from './test-animation.ts';
import {
  BLUE,
  decode,
  edgeEnergy,
  GREEN,
  near,
  options,
  type Pixels,
  pixel,
  quadrants,
  RED,
  redCorner,
  redCornerOf,
  testImage,
} from './test-pixels.ts';
import { ImageDecodeError, probeImage, type ResolvedTransforms, transformImage } from './transform-pipeline.ts';

const rocket = testImage('rocket.jpg'); // 640×427

async function transformed(input: Buffer, transforms: Partial<ResolvedTransforms>, extra = {}) {
  const answer = await transformImage(input, { format: 'png', ...transforms }, { ...options, ...extra });
  return { answer, pixels: await decode(answer.data) };
}

function meanDifference(a: Pixels, b: Pixels): number {
  let total = 0;
  for (let i = 0; i < a.data.length; i++) total += Math.abs(a.data[i] - b.data[i]);
  return total / a.data.length;
}

async function size(input: Buffer, transforms: Partial<ResolvedTransforms>): Promise<[number, number]> {
  const { answer, pixels } = await transformed(input, transforms);
  assert.deepEqual([answer.width, answer.height], [pixels.width, pixels.height], 'reported size is the encoded size');
  return [pixels.width, pixels.height];
}

describe('resizing by fit', () => {
  it('cover fills the box exactly', async () => {
    assert.deepEqual(await size(rocket, { width: 300, height: 300, fit: 'cover' }), [300, 300]);
  });
  it('crop is the same as cover', async () => {
    const cover = await transformed(rocket, { width: 200, height: 300, fit: 'cover' });
    const crop = await transformed(rocket, { width: 200, height: 300, fit: 'crop' });
    assert.deepEqual(crop.pixels, cover.pixels);
  });
  it('contain fits inside the box and keeps the aspect ratio, without letterbox', async () => {
    assert.deepEqual(await size(rocket, { width: 300, height: 300, fit: 'contain' }), [300, 200]);
  });
  it('fill stretches to the box', async () => {
    assert.deepEqual(await size(rocket, { width: 300, height: 300, fit: 'fill' }), [300, 300]);
  });
  it('scale-down shrinks like contain', async () => {
    assert.deepEqual(await size(rocket, { width: 300, height: 300, fit: 'scale-down' }), [300, 200]);
  });
  it('scale-down never enlarges', async () => {
    assert.deepEqual(await size(rocket, { width: 2000, height: 2000, fit: 'scale-down' }), [640, 427]);
  });
  it('scale-down with a width alone never enlarges either', async () => {
    assert.deepEqual(await size(rocket, { width: 2000, fit: 'scale-down' }), [640, 427]);
  });
  it('pad gives the exact box with the image centred on a bg band', async () => {
    const { pixels } = await transformed(rocket, { width: 300, height: 300, fit: 'pad', bg: 'ff0000' });
    assert.deepEqual([pixels.width, pixels.height], [300, 300]);
    for (const [x, y] of [
      [150, 10],
      [150, 289],
      [0, 0],
      [299, 299],
    ])
      assert.deepEqual(pixel(pixels, x, y).slice(0, 3), RED, `${x},${y}`);
    assert.ok(!near(pixel(pixels, 150, 150), RED), 'the picture fills the middle');
  });
  it('the pad band stays exactly bg when colours are adjusted', async () => {
    const { pixels } = await transformed(rocket, { width: 300, height: 300, fit: 'pad', bg: 'ff0000', brightness: -50, blur: 3 });
    assert.deepEqual(pixel(pixels, 150, 10), RED);
  });
  it('pad without bg leaves a transparent band in a format with alpha', async () => {
    const { pixels } = await transformed(rocket, { width: 300, height: 300, fit: 'pad' });
    assert.equal(pixels.channels, 4);
    assert.equal(pixel(pixels, 150, 10)[3], 0);
    assert.equal(pixel(pixels, 150, 150)[3], 255);
  });
  it('width alone keeps the aspect ratio', async () => {
    const [width, height] = await size(rocket, { width: 320 });
    assert.equal(width, 320);
    assert.ok(Math.abs(height - 213.5) <= 1, `height ${height}`);
  });
  it('height alone keeps the aspect ratio', async () => {
    const [width, height] = await size(rocket, { height: 100, fit: 'fill' });
    assert.equal(height, 100);
    assert.ok(Math.abs(width - 149.9) <= 1, `width ${width}`);
  });
  it('dpr multiplies width and height', async () => {
    assert.deepEqual(await size(rocket, { width: 150, height: 100, dpr: 2 }), [300, 200]);
  });
});

describe('orientation', () => {
  for (const [rotate, corner] of [
    [90, 'top-right'],
    [180, 'bottom-right'],
    [270, 'bottom-left'],
  ] as const) {
    it(`rotate ${rotate} turns clockwise: the top-left square lands ${corner}`, async () => {
      const { pixels } = await transformed(await redCorner(), { rotate });
      assert.deepEqual([pixels.width, pixels.height], rotate === 180 ? [60, 40] : [40, 60]);
      assert.equal(redCornerOf(pixels), corner);
    });
  }
  it('flip h mirrors left-right', async () => {
    assert.equal(redCornerOf((await transformed(await redCorner(), { flip: 'h' })).pixels), 'top-right');
  });
  it('flip v turns upside down', async () => {
    assert.equal(redCornerOf((await transformed(await redCorner(), { flip: 'v' })).pixels), 'bottom-left');
  });
  it('flip applies after rotate', async () => {
    // rotate 90: top-left → top-right; then mirror left-right: → top-left.
    assert.equal(redCornerOf((await transformed(await redCorner(), { rotate: 90, flip: 'h' })).pixels), 'top-left');
  });
  it('an EXIF orientation is applied before anything else', async () => {
    const sideways = await sharp(rocket).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    assert.deepEqual(await size(sideways, {}), [427, 640]);
  });
});

describe('gravity', () => {
  // Covering 50×50 from the 400×200 quadrants keeps a column, so only left/right matter;
  // covering 100×10 keeps a row, so only top/bottom matter.
  const gravities = ['center', 'top', 'bottom', 'left', 'right', 'top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
  for (const gravity of gravities) {
    it(`${gravity} keeps the ${gravity} of the picture`, async () => {
      const input = await quadrants();
      const column = (await transformed(input, { width: 50, height: 50, gravity })).pixels;
      const row = (await transformed(input, { width: 100, height: 10, gravity })).pixels;
      const [left, right] = [pixel(column, 5, 5), pixel(column, 44, 5)];
      if (gravity.endsWith('left')) assert.ok(near(left, RED) && near(right, RED), `left ${left} ${right}`);
      else if (gravity.endsWith('right')) assert.ok(near(left, GREEN) && near(right, GREEN), `right ${left} ${right}`);
      else assert.ok(near(left, RED) && near(right, GREEN), `centred column ${left} ${right}`);
      const [top, bottom] = [pixel(row, 5, 1), pixel(row, 5, 8)];
      if (gravity.startsWith('top')) assert.ok(near(top, RED) && near(bottom, RED), `top ${top} ${bottom}`);
      else if (gravity.startsWith('bottom')) assert.ok(near(top, BLUE) && near(bottom, BLUE), `bottom ${top} ${bottom}`);
      else assert.ok(near(top, RED) && near(bottom, BLUE), `centred row ${top} ${bottom}`);
    });
  }
  it('auto picks the salient part of rocket.jpg, not the centre', async () => {
    const centre = await transformed(rocket, { width: 150, height: 400, gravity: 'center' });
    const auto = await transformed(rocket, { width: 150, height: 400, gravity: 'auto' });
    assert.notDeepEqual(auto.pixels.data, centre.pixels.data);
  });

  it('face centres the crop on the face the finder reports', async () => {
    const coffee = testImage('coffee.png'); // 600×400, no real face: the fake finder places one
    const seen: number[] = [];
    const findFace = async (image: { data: Buffer; width: number; height: number; channels: 3 }) => {
      seen.push(image.width, image.height, image.data.length / (image.width * image.height));
      return { x: image.width * 0.9, y: image.height * 0.4, width: image.width * 0.08, height: image.height * 0.1 };
    };
    const face = (await transformed(coffee, { width: 200, height: 200, gravity: 'face' }, { findFace })).pixels;
    const right = (await transformed(coffee, { width: 200, height: 200, gravity: 'right' })).pixels;
    const centre = (await transformed(coffee, { width: 200, height: 200, gravity: 'center' })).pixels;
    assert.deepEqual(seen, [512, 341, 3], 'the finder gets a downscaled RGB copy');
    assert.ok(meanDifference(face, right) < meanDifference(face, centre) / 4, 'the crop moved to the right edge');
  });
  it('face without a face found falls back to auto', async () => {
    const coffee = testImage('coffee.png');
    const face = await transformed(coffee, { width: 150, height: 300, gravity: 'face' }, { findFace: async () => null });
    const auto = await transformed(coffee, { width: 150, height: 300, gravity: 'auto' });
    assert.deepEqual(face.pixels, auto.pixels);
  });
  it('face without a finder falls back to auto', async () => {
    const face = await transformed(rocket, { width: 150, height: 400, gravity: 'face' });
    const auto = await transformed(rocket, { width: 150, height: 400, gravity: 'auto' });
    assert.deepEqual(face.pixels, auto.pixels);
  });
});

describe('blur and sharpen', () => {
  const hubble = testImage('hubble_deep_field.jpg');
  it('blur lowers edge energy', async () => {
    const plain = edgeEnergy((await transformed(hubble, { width: 500 })).pixels);
    const blurred = edgeEnergy((await transformed(hubble, { width: 500, blur: 4 })).pixels);
    assert.ok(blurred < plain * 0.5, `${blurred} vs ${plain}`);
  });
  it('sharpen raises edge energy', async () => {
    const plain = edgeEnergy((await transformed(hubble, { width: 500 })).pixels);
    const sharpened = edgeEnergy((await transformed(hubble, { width: 500, sharpen: 2 })).pixels);
    assert.ok(sharpened > plain * 1.2, `${sharpened} vs ${plain}`);
  });
  it('sharpen 0 changes nothing', async () => {
    const plain = await transformed(hubble, { width: 200 });
    assert.deepEqual((await transformed(hubble, { width: 200, sharpen: 0 })).pixels, plain.pixels);
  });
});

describe('output formats', () => {
  const magic = {
    jpeg: (data: Buffer) => data.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
    png: (data: Buffer) => data.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])),
    webp: (data: Buffer) => data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP',
    avif: (data: Buffer) => data.toString('latin1', 4, 12) === 'ftypavif',
  };
  for (const [format, matches] of Object.entries(magic)) {
    it(`${format} output starts with ${format}'s signature and says its content type`, async () => {
      const answer = await transformImage(rocket, { format: format as keyof typeof magic, width: 64 }, options);
      assert.ok(matches(answer.data), answer.data.subarray(0, 12).toString('hex'));
      assert.equal(answer.format, format);
      assert.equal(answer.contentType, `image/${format}`);
    });
  }
  it('jxl output hands the final RGBA pixels to encodeJxl', async () => {
    const calls: unknown[] = [];
    const encodeJxl = async (image: { data: Buffer; width: number; height: number; channels: 4 }, quality: number) => {
      calls.push([image.width, image.height, image.channels, image.data.length, quality]);
      return Buffer.from([0xff, 0x0a]);
    };
    const answer = await transformImage(rocket, { format: 'jxl', width: 64, height: 32, quality: 70 }, { ...options, encodeJxl });
    assert.deepEqual(calls, [[64, 32, 4, 64 * 32 * 4, 70]]);
    assert.deepEqual([answer.data, answer.contentType], [Buffer.from([0xff, 0x0a]), 'image/jxl']);
  });
  it('jxl output without an encoder is a clear error', async () => {
    await assert.rejects(transformImage(rocket, { format: 'jxl' }, options), /encodeJxl/);
  });
  it('a single-band grayscale original comes out as RGB', async () => {
    const { pixels } = await transformed(testImage('camera.png'), { width: 100 });
    assert.deepEqual([pixels.width, pixels.height, pixels.channels], [100, 100, 3]);
  });
  it('an animated GIF as PNG gives its first frame', async () => {
    const gif = testImage('no_time_for_that_tiny.gif'); // 14×25, 24 frames
    assert.deepEqual(await size(gif, {}), [14, 25]);
  });
});

describe('refused input', () => {
  const truncatedBody = rocket.subarray(0, Math.floor(rocket.length * 0.6));
  const refusals = {
    'truncated.jpg': [testImage('truncated.jpg'), 'corrupt'],
    'a JPEG cut short after a valid header': [truncatedBody, 'corrupt'],
    'a text file': [Buffer.from('This is not an image.\n'), 'unsupported'],
    'an empty file': [Buffer.alloc(0), 'unsupported'],
  } as const;
  for (const [name, [input, reason]] of Object.entries(refusals)) {
    it(`probeImage refuses ${name}`, async () => {
      await assert.rejects(probeImage(input, options), (error) => error instanceof ImageDecodeError && error.reason === reason);
    });
    it(`transformImage refuses ${name}`, async () => {
      const attempt = transformImage(input, { format: 'png', width: 50 }, options);
      await assert.rejects(attempt, (error) => error instanceof ImageDecodeError && error.reason === reason);
    });
  }
  it('probeImage refuses an image over maxInputPixels', async () => {
    const attempt = probeImage(rocket, { maxInputPixels: 640 * 427 - 1, maxAnimationPixels: 640 * 427 });
    await assert.rejects(attempt, (error) => error instanceof ImageDecodeError && error.reason === 'too_large');
  });
  it('transformImage refuses an image over maxInputPixels', async () => {
    const attempt = transformImage(rocket, { format: 'png', width: 50 }, { ...options, maxInputPixels: 640 * 427 - 1 });
    await assert.rejects(attempt, (error) => error instanceof ImageDecodeError && error.reason === 'too_large');
  });
});

describe('time limit', () => {
  it('stops a transform that outlasts timeoutSeconds', async () => {
    // A sigma-125 blur over a 6000-wide enlargement takes far longer than the 1 s allowed.
    const attempt = transformImage(rocket, { format: 'png', width: 6000, blur: 250 }, { ...options, timeoutSeconds: 1 });
    await assert.rejects(attempt, (error) => error instanceof ImageDecodeError && error.reason === 'timeout');
  });
  it('reports a stage that fails after the deadline as a timeout, whatever its message', async () => {
    // libvips has reported a pipeline killed by its timeout as "Unknown error"; a stage that
    // fails so once the time is spent stands for it here (the JPEG XL encoder is injected).
    const failsLate = () => new Promise<Buffer>((_, reject) => setTimeout(() => reject(new Error('Unknown error')), 300));
    const attempt = transformImage(rocket, { format: 'jxl', width: 50 }, { ...options, timeoutSeconds: 0.2, encodeJxl: failsLate });
    await assert.rejects(attempt, (error) => error instanceof ImageDecodeError && error.reason === 'timeout');
  });
  it('leaves a failure within the time limit as it is', async () => {
    const failsAtOnce = () => Promise.reject(new Error('Unknown error'));
    const attempt = transformImage(rocket, { format: 'jxl', width: 50 }, { ...options, encodeJxl: failsAtOnce });
    await assert.rejects(attempt, (error) => !(error instanceof ImageDecodeError) && (error as Error).message === 'Unknown error');
  });
});

describe('probeImage', () => {
  it('reports size, format, alpha and pages', async () => {
    const { thumbnail: _, ...facts } = await probeImage(rocket, options);
    assert.deepEqual(facts, { width: 640, height: 427, format: 'jpeg', hasAlpha: false, pages: 1 });
  });
  it('gives a small RGBA thumbnail with the aspect ratio of the image', async () => {
    const { thumbnail } = await probeImage(rocket, options);
    assert.deepEqual([thumbnail.width, thumbnail.height, thumbnail.channels], [32, 21, 4]);
    assert.equal(thumbnail.data.length, 32 * 21 * 4);
  });
  it('reports the size as displayed, after the EXIF orientation', async () => {
    const sideways = await sharp(rocket).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const probed = await probeImage(sideways, options);
    assert.deepEqual([probed.width, probed.height], [427, 640]);
  });
  it('names AVIF avif, not heif', async () => {
    const avif = await sharp(rocket).resize(64).avif({ effort: 0 }).toBuffer();
    assert.equal((await probeImage(avif, options)).format, 'avif');
  });
  it('counts the frames of an animated GIF', async () => {
    const { thumbnail: _, ...probed } = await probeImage(testImage('no_time_for_that_tiny.gif'), options);
    assert.deepEqual(probed, { width: 14, height: 25, format: 'gif', hasAlpha: true, pages: 24 });
  });
});

describe('animations', () => {
  const animation = () => animationFromPhoto(rocket, { frames: 6, width: 60, height: 40, format: 'gif', loop: 2 });

  it('rotate=180 and flip=v keep the frames in order (sharp would reverse the stack)', async () => {
    const { data } = await animation();
    for (const transforms of [{ rotate: 180 }, { flip: 'v' }] as const) {
      const answer = await transformImage(data, { format: 'webp', ...transforms }, options);
      const decoded = await decodeFrames(answer.data);
      assert.equal(answer.frames, 6);
      decoded.frames.forEach((frame, index) => {
        const x = 'rotate' in transforms ? 55 : 5;
        assert.ok(near(pixel(frame, x, 35).slice(0, 3), markerColour(index), 24), `${JSON.stringify(transforms)} frame ${index}`);
      });
    }
  });

  it('blur stays within each frame: the first row of a frame takes nothing from the frame above', async () => {
    const { data } = await animation();
    const answer = await transformImage(data, { format: 'webp', blur: 20, quality: 100 }, options);
    const decoded = await decodeFrames(answer.data);
    // The marker is the frame's top-left quarter: blurred within the frame, its colour stays
    // strongest at the top edge; blurred across the stack, the frame above would dilute it.
    decoded.frames.slice(1).forEach((frame, index) => {
      const top = pixel(frame, 5, 0);
      const colour = markerColour(index + 1);
      const channel = colour.indexOf(255);
      assert.ok((top[channel] as number) > 200, `frame ${index + 1}: ${top}`);
    });
  });

  it('refuses an animation over the bound from its header, before decoding its frames', async () => {
    const { data } = await animation();
    const attempt = transformImage(data, { format: 'gif' }, { ...options, maxAnimationPixels: 6 * 60 * 40 - 1 });
    await assert.rejects(attempt, (error: Error & { code?: string }) => error.code === 'animation_too_large');
    const poster = await transformImage(data, { format: 'gif', frame: 2 }, { ...options, maxAnimationPixels: 6 * 60 * 40 - 1 });
    assert.equal(poster.frames, 1);
  });
});
