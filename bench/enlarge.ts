/**
 * What `enlarge=never` costs the pipeline: `node bench/enlarge.ts` (Node 24). A cover or fill
 * box that may not enlarge needs the original's size before sharp is given the box, so the
 * pipeline reads the header once more (transform/transform-pipeline.ts, planFor); contain,
 * pad and one-side resizes use sharp's withoutEnlargement and cost nothing extra. This times
 * the same cover under allow and never, alternating, on a 4000×3000 JPEG (12 Mpx, as part 1 of
 * bench/cdn.ts) and on the real photos, and the header read alone.
 *
 *   BENCH_RUNS   timed transforms per row (default 30)
 */

import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { decodeOptions, transformImage } from '../packages/server/src/transform/transform-pipeline.ts';

const runs = Number(process.env.BENCH_RUNS ?? 30);
const options = { maxInputPixels: 100_000_000, maxAnimationPixels: 100_000_000, timeoutSeconds: 60 };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function timed(action: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

const photos: [string, Buffer][] = [
  [
    '4000×3000 JPEG',
    await sharp(await readFile(new URL('../packages/server/testdata/images/hubble_deep_field.jpg', import.meta.url)))
      .resize(4000, 3000, { fit: 'fill' })
      .jpeg({ quality: 90 })
      .toBuffer(),
  ],
  ['hubble_deep_field.jpg 1000×872', await readFile(new URL('../packages/server/testdata/images/hubble_deep_field.jpg', import.meta.url))],
  ['rocket.jpg 640×427', await readFile(new URL('../packages/server/testdata/images/rocket.jpg', import.meta.url))],
];

console.log(
  `median of ${runs} runs, ms (cover 800×600 → JPEG; the box fits inside every original but rocket's, which never crops to 569×427)`,
);
console.log(['original', 'allow', 'never', 'header read alone'].join(' | '));
for (const [name, input] of photos) {
  const times = { allow: [] as number[], never: [] as number[], header: [] as number[] };
  for (let run = 0; run < runs + 2; run++) {
    const allow = await timed(() => transformImage(input, { width: 800, height: 600, format: 'jpeg', enlarge: 'allow' }, options));
    const never = await timed(() => transformImage(input, { width: 800, height: 600, format: 'jpeg', enlarge: 'never' }, options));
    const header = await timed(() => sharp(input, decodeOptions(options.maxInputPixels)).metadata());
    // The first two runs warm libvips and the JIT.
    if (run < 2) continue;
    times.allow.push(allow);
    times.never.push(never);
    times.header.push(header);
  }
  console.log([name, median(times.allow).toFixed(1), median(times.never).toFixed(1), median(times.header).toFixed(2)].join(' | '));
}
