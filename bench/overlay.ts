/**
 * What a watermark costs on a cold variant: `node_modules/.bin/node bench/overlay.ts` (Node 24).
 *
 *   BENCH_COLD_REQUESTS   timed requests per row (default 15)
 *
 * Loupe runs as `npm start` does (a child process, SQLite). Each request asks a distinct width
 * (800, 801, …) so every one is a cache miss and transforms; the rows take turns request by
 * request, so that load from elsewhere on the machine falls on all of them alike. Inputs: the
 * real photo hubble_deep_field.jpg (1000×872) and the 4000×3000 JPEG bench/cdn.ts makes from it;
 * the overlay is astronaut.png (512×512, a real photo) at the bottom-right corner, 25% of the
 * width at opacity 60, or tiled at 10% with 40 px spacing. Then the same transforms through the
 * pipeline alone, in this process (`transformImage`), where HTTP and the cache add nothing.
 */

import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { transformImage } from '../packages/server/src/transform/transform-pipeline.ts';
import { loadAverage, numberSetting, printTable, quantile, runBench } from './bench-kit.ts';
import { loupeApi, startLoupe } from './loupe-server.ts';

const TEST_IMAGES = fileURLToPath(new URL('../packages/server/testdata/images/', import.meta.url));
const TARGET_WIDTH = 800;
const COUNT = Math.round(numberSetting('BENCH_COLD_REQUESTS', 15, 3));

const CASES = [
  { title: 'no overlay', query: '', transforms: {} },
  {
    title: 'overlay bottom-right, 25%, opacity 60',
    query: '&ov=astronaut.png&ovg=bottom-right&ovx=16&ovy=16&ovs=25&ovo=60',
    transforms: {
      overlay: 'astronaut.png',
      overlayGravity: 'bottom-right',
      overlayX: 16,
      overlayY: 16,
      overlayScale: 25,
      overlayOpacity: 60,
    },
  },
  {
    title: 'overlay tiled, 10%, spacing 40',
    query: '&ov=astronaut.png&ovt=1&ovs=10&ovsp=40&ovo=40',
    transforms: { overlay: 'astronaut.png', overlayTile: true, overlayScale: 10, overlaySpacing: 40, overlayOpacity: 40 },
  },
] as const;

function printRows(heading: string, times: number[][]): void {
  const base = quantile(times[0]!, 0.5);
  console.log(`\n${heading}`);
  printTable(
    ['variant', 'median ms', 'p90 ms', 'vs none'],
    CASES.map(({ title }, index) => {
      const median = quantile(times[index]!, 0.5);
      return [
        title,
        median.toFixed(1),
        quantile(times[index]!, 0.9).toFixed(1),
        `${median >= base ? '+' : '−'}${Math.abs(median - base).toFixed(1)} ms`,
      ];
    }),
  );
}

async function upload(url: string, key: string, projectId: string, path: string, data: Buffer): Promise<void> {
  const form = new FormData();
  form.set('path', path);
  form.set('file', new Blob([new Uint8Array(data)]), path);
  const response = await fetch(`${url}/api/images/projects/${projectId}/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`uploading ${path}: ${response.status} ${await response.text()}`);
}

async function coldGet(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200 || response.headers.get('x-cache') !== 'miss') {
    throw new Error(`${url}: ${response.status}, cache ${response.headers.get('x-cache')}`);
  }
  return performance.now() - started;
}

async function main(): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  const loupe = await startLoupe({ label: 'overlay' });
  const project = await loupeApi(loupe, 'POST', '/api/images/projects', { name: 'Overlay bench' });
  const hubble = await sharp(`${TEST_IMAGES}hubble_deep_field.jpg`).toBuffer();
  const big = await sharp(hubble).resize(4000, 3000, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer();
  await upload(loupe.url, loupe.key, project.id, 'hubble.jpg', hubble);
  await upload(loupe.url, loupe.key, project.id, 'big.jpg', big);
  await upload(loupe.url, loupe.key, project.id, 'astronaut.png', await sharp(`${TEST_IMAGES}astronaut.png`).toBuffer());

  for (const [image, label] of [
    ['hubble.jpg', 'hubble_deep_field.jpg, 1000×872'],
    ['big.jpg', '4000×3000 JPEG'],
  ] as const) {
    for (const format of ['webp', 'jpeg']) {
      const cdn = (width: number, query: string) => `${loupe.url}/cdn/${project.slug}/${image}?w=${width}&f=${format}${query}`;
      // Two unmeasured requests warm the server and the overlay's first read.
      for (const { query } of CASES) for (const width of [600, 601]) await coldGet(cdn(width, query));
      const times = CASES.map(() => [] as number[]);
      for (let i = 0; i < COUNT; i++) {
        for (const [index, { query }] of CASES.entries()) times[index]!.push(await coldGet(cdn(TARGET_WIDTH + i, query)));
      }
      printRows(`${label} → ${TARGET_WIDTH} wide ${format} over HTTP, ${COUNT} cold requests a row`, times);
    }
  }

  const astronaut = await sharp(`${TEST_IMAGES}astronaut.png`).toBuffer();
  for (const [input, label] of [
    [hubble, 'hubble_deep_field.jpg, 1000×872'],
    [big, '4000×3000 JPEG'],
  ] as const) {
    for (const format of ['webp', 'jpeg'] as const) {
      const times = CASES.map(() => [] as number[]);
      for (let i = -2; i < COUNT; i++) {
        for (const [index, { transforms }] of CASES.entries()) {
          const started = performance.now();
          await transformImage(
            input,
            { width: TARGET_WIDTH, format, ...transforms },
            { maxInputPixels: 50_000_000, maxAnimationPixels: 50_000_000, timeoutSeconds: 30, overlay: astronaut },
          );
          if (i >= 0) times[index]!.push(performance.now() - started);
        }
      }
      printRows(`${label} → ${TARGET_WIDTH} wide ${format}, pipeline alone, ${COUNT} runs a row`, times);
    }
  }
  console.log(`\nload average at end: ${loadAverage()}`);
}

await runBench(main);
