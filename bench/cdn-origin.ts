/**
 * Part 5 of bench/cdn.ts (issue #26 point 2): the first request of an image the project does
 * not hold, fetched from its origin, stored and transformed, against a cold transform of an
 * image already held and a warm request. The origin is a node:http server on loopback in this
 * process serving the real photos (packages/server/testdata/images); Loupe is a child process
 * with LOUPE_CRAWL_ALLOW_PRIVATE=true so that it may fetch from loopback over http.
 *
 *   BENCH_ORIGIN_ROUNDS   distinct paths per photo (each fetched from the origin once), default 5
 */

import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { numberSetting, printTable, quantile } from './bench-kit.ts';
import { startLoupe } from './loupe-server.ts';

const WIDTH = 400;

async function timed(url: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

export async function originFetchBench(
  photos: string,
  serverEnv: Record<string, string>,
): Promise<{ aim: string; value: string; met: boolean | undefined }> {
  const rounds = Math.round(numberSetting('BENCH_ORIGIN_ROUNDS', 5, 1));
  const names = (await readdir(photos)).filter((name) => /\.(jpe?g|png)$/.test(name) && name !== 'truncated.jpg').sort();
  const files = new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(photos, name))] as const)));
  let asked = 0;
  const origin = createServer((request, response) => {
    asked++;
    const data = files.get((request.url ?? '').split('/').at(-1) ?? '');
    if (!data) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length }).end(data);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const loupe = await startLoupe({ label: 'cdn-origin', env: { ...serverEnv, LOUPE_CRAWL_ALLOW_PRIVATE: 'true' } });
  try {
    const headers = { authorization: `Bearer ${loupe.key}`, 'content-type': 'application/json' };
    const project = (await (
      await fetch(`${loupe.url}/api/images/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'Origin bench' }) })
    ).json()) as { id: string; slug: string };
    const baseUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}/photos/`;
    const set = await fetch(`${loupe.url}/api/images/projects/${project.id}/origin`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ origin: { kind: 'https', baseUrl } }),
    });
    if (set.status !== 200) throw new Error(`setting the origin answered ${set.status}: ${await set.text()}`);

    console.log(`5. Origin fetch: first request of a path the project lacks (fetch + store + ${WIDTH} px WebP) vs the same image held`);
    console.log(
      `   origin: node:http on loopback serving the real photos; ${rounds} distinct paths per photo, one request at a time; medians`,
    );
    const rows: string[][] = [];
    const firsts: number[] = [];
    const colds: number[] = [];
    const warms: number[] = [];
    let failures = 0;
    for (const name of names) {
      const first: number[] = [];
      const cold: number[] = [];
      const warm: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const url = (query: string) => `${loupe.url}/cdn/${project.slug}/r${round}/${name}?${query}`;
        const fetched = await timed(url(`w=${WIDTH}&f=webp`));
        // The same image, now held: another width is a cold transform without the origin.
        const transformed = await timed(url(`w=${WIDTH + 1}&f=webp`));
        const hit = await timed(url(`w=${WIDTH}&f=webp`));
        if ([fetched, transformed, hit].some((answer) => answer.status !== 200)) failures++;
        first.push(fetched.ms);
        cold.push(transformed.ms);
        warm.push(hit.ms);
      }
      firsts.push(...first);
      colds.push(...cold);
      warms.push(...warm);
      const median = (values: number[]) => quantile(values, 0.5);
      rows.push([
        name,
        `${((files.get(name)?.length ?? 0) / 1e3).toFixed(0)} kB`,
        median(first).toFixed(1),
        median(cold).toFixed(1),
        (median(first) - median(cold)).toFixed(1),
        median(warm).toFixed(2),
      ]);
    }
    printTable(['photo', 'size', 'first (ms)', 'held, cold (ms)', 'origin share (ms)', 'warm (ms)'], rows);
    const expected = names.length * rounds;
    console.log(`   origin asked ${asked} times for ${expected} first requests (${expected * 3} requests in all)`);
    console.log('');
    const value = `first ${quantile(firsts, 0.5).toFixed(1)} ms, held cold ${quantile(colds, 0.5).toFixed(1)} ms, warm ${quantile(warms, 0.5).toFixed(2)} ms (medians)`;
    return { aim: 'origin: fetched once per path, later requests never ask it', value, met: asked === expected && failures === 0 };
  } finally {
    await loupe.stop();
    await new Promise<void>((resolve) => origin.close(() => resolve()));
  }
}
