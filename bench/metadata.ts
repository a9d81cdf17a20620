/**
 * What metadata handling costs (issue #26 point 6): `node bench/metadata.ts` (Node 24).
 *
 *   BENCH_ROUNDS   timed runs per case, after one untimed (default 10); the median is printed
 *
 * On the real photos in packages/server/testdata/images, each given a GPS position and XMP:
 * an 800 px JPEG with and without keepMetadata (the carrier encode), stripping the original
 * byte for byte (the untransformed answer), and the facts behind `?meta`. A 14 Mpx photo is
 * made from rocket.jpg to show the original-sized cases.
 */
import sharp from 'sharp';
import { describeOriginal } from '../packages/server/src/cdn/image-info.ts';
import { readTestImage } from '../packages/server/src/testing/test-images.ts';
import { stripMetadata } from '../packages/server/src/transform/strip-metadata.ts';
import { photoWithGps } from '../packages/server/src/transform/test-metadata.ts';
import { transformImage } from '../packages/server/src/transform/transform-pipeline.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const options = { maxInputPixels: 100_000_000, timeoutSeconds: 60, maxAnimationPixels: 100_000_000 };

async function median(run: () => Promise<unknown> | unknown): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const photos: Array<[string, Buffer]> = [];
for (const name of ['rocket.jpg', 'hubble_deep_field.jpg', 'chelsea.png'])
  photos.push([name, await photoWithGps(await readTestImage(name))]);
const big = await sharp(await readTestImage('rocket.jpg'))
  .resize(4592, 3064)
  .jpeg({ quality: 90 })
  .toBuffer();
photos.push(['rocket 14 Mpx', await photoWithGps(big)]);

console.log(`median of ${ROUNDS} runs, ms`);
console.log('photo                  | 800px jpeg | +keepMetadata | strip original | ?meta facts');
for (const [name, data] of photos) {
  const transforms = { width: 800, format: 'jpeg' } as const;
  const plain = await median(() => transformImage(data, transforms, options));
  const kept = await median(() => transformImage(data, transforms, { ...options, keepMetadata: true }));
  const strip = await median(() => stripMetadata(data, 'jpeg', 1));
  const facts = await median(() => describeOriginal(data, { format: 'jpeg', contentType: 'image/jpeg', blurhash: null }, options));
  console.log(
    `${name.padEnd(22)} | ${plain.toFixed(1).padStart(10)} | ${kept.toFixed(1).padStart(13)} | ${strip.toFixed(2).padStart(14)} | ${facts.toFixed(1).padStart(11)}`,
  );
}
