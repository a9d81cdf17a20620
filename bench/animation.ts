/**
 * An animated 50-frame GIF resized cold (issue #26, point 1): Loupe over HTTP against sharp
 * directly with the same settings. Run by hand: `npm run bench:animation`.
 *
 *   BENCH_COLD_REQUESTS   timed requests (or sharp calls) per row (default 8)
 *
 * The GIF is 50 frames of 480×320, each a different crop of rocket.jpg (a real photo) with a
 * coloured quarter (transform/test-animation.ts); each Loupe request asks a distinct width
 * (240, 241, …), so each is a cache miss and a full decode, resize and encode of 50 frames.
 */

import sharp from 'sharp';
import { testImagesDir } from '../packages/server/src/testing/test-images.ts';
import { animationFromPhoto } from '../packages/server/src/transform/test-animation.ts';
import { loadAverage, numberSetting, printTable, quantile, runBench } from './bench-kit.ts';
import { loupeApi, startLoupe } from './loupe-server.ts';

const REQUESTS = numberSetting('BENCH_COLD_REQUESTS', 8, 1);
// sharp here as Loupe runs it (transform-pipeline.ts): one libvips thread per image, no
// operation cache; so the ratio is what Loupe adds, not a difference of settings.
sharp.concurrency(1);
sharp.cache(false);
const WIDTH = 240;

async function timed(count: number, once: (index: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const start = performance.now();
    await once(index);
    times.push(performance.now() - start);
  }
  return times;
}

const row = (name: string, times: number[], base?: number[]) => [
  name,
  quantile(times, 0.5).toFixed(0),
  quantile(times, 0.9).toFixed(0),
  base ? `${(quantile(times, 0.5) / quantile(base, 0.5)).toFixed(2)}×` : '',
];

await runBench(async () => {
  console.log(`load average at start: ${loadAverage()}`);
  const photo = await sharp(new URL('rocket.jpg', testImagesDir).pathname).toBuffer();
  const { data: gif } = await animationFromPhoto(photo, { frames: 50, width: 480, height: 320, format: 'gif' });
  console.log(`GIF: 50 frames of 480×320, ${(gif.length / 1024).toFixed(0)} KiB; to ${WIDTH}+ px wide, ${REQUESTS} requests a row`);

  const loupe = await startLoupe({ label: 'animation' });
  const project = await loupeApi(loupe, 'POST', '/api/images/projects', { name: 'Animation bench' });
  const form = new FormData();
  form.set('path', 'anim.gif');
  form.set('file', new Blob([new Uint8Array(gif)]), 'anim.gif');
  const uploaded = await fetch(`${loupe.url}/api/images/projects/${project.id}/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${loupe.key}`, 'x-service-team': loupe.workspaceId },
    body: form,
  });
  if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);

  let width = WIDTH;
  const viaLoupe = (format: string) => async () => {
    const response = await fetch(`${loupe.url}/cdn/${project.slug}/anim.gif?w=${width++}&f=${format}`);
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${response.status} ${body.toString('utf8').slice(0, 200)}`);
  };
  const viaSharp = (format: 'gif' | 'webp') => async () => {
    const pipeline = sharp(gif, { animated: true }).resize(width++);
    await (format === 'gif' ? pipeline.gif({ effort: 1 }) : pipeline.webp({ quality: 80 })).toBuffer();
  };
  await viaLoupe('gif')(); // warm-up: server start, first sharp call
  await viaSharp('gif')();

  const sharpGif = await timed(REQUESTS, viaSharp('gif'));
  const loupeGif = await timed(REQUESTS, viaLoupe('gif'));
  const sharpWebp = await timed(REQUESTS, viaSharp('webp'));
  const loupeWebp = await timed(REQUESTS, viaLoupe('webp'));
  printTable(
    ['cold 50-frame GIF → 240 px', 'p50 ms', 'p90 ms', 'Loupe / sharp'],
    [
      row('sharp, GIF (effort 1)', sharpGif),
      row('Loupe over HTTP, f=gif', loupeGif, sharpGif),
      row('sharp, WebP (q 80)', sharpWebp),
      row('Loupe over HTTP, f=webp', loupeWebp, sharpWebp),
    ],
  );
  console.log(`load average at end: ${loadAverage()}`);
});
