/**
 * The functions that took the most CPU in a V8 profile (`--cpu-prof`, as BENCH_CPU_PROF writes
 * for the servers the benches start), by self time, summed over every node of the same function:
 *
 *   node bench/cpu-profile-top.ts <file.cpuprofile> [count, default 15] [--by-file]
 *
 * `--by-file` sums by script instead (node_modules packages as one). A sample lasts until the next
 * one, as DevTools counts it. (idle) is the event loop waiting; (program) is native code outside
 * JavaScript; (garbage collector) is GC.
 */
import { readFile } from 'node:fs/promises';
import { printTable } from './bench-kit.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const byFile = args.includes('--by-file');
const [file, countArg] = args.filter((arg) => arg !== '--by-file');
if (!file) throw new Error('usage: node bench/cpu-profile-top.ts <file.cpuprofile> [count] [--by-file]');
const count = Number(countArg ?? 15);

/** A script's path from the repository or node_modules on, so that the table stays narrow. */
function shortUrl(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = path.slice(modules + '/node_modules/'.length).split('/');
    const name = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
    return byFile ? name : `${name}/…/${rest.at(-1)}`;
  }
  const packages = path.indexOf('/packages/');
  return packages >= 0 ? path.slice(packages + 1) : path;
}

const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map<string, number>();
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const micros = profile.timeDeltas[i + 1] ?? 0;
  const frame = nodes.get(profile.samples[i]!)!.callFrame;
  const where = frame.url ? shortUrl(frame.url) : '';
  const key = byFile
    ? where || frame.functionName
    : `${frame.functionName || '(anonymous)'}\t${where}${where ? `:${frame.lineNumber + 1}` : ''}`;
  selfMicros.set(key, (selfMicros.get(key) ?? 0) + micros);
  total += micros;
}
const busy = total - (selfMicros.get(byFile ? '(idle)' : '(idle)\t') ?? 0);
const top = [...selfMicros.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
console.log(`${file}: ${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s not idle`);
printTable(
  [byFile ? 'script' : 'function', ...(byFile ? [] : ['where']), 'self ms', '% of busy'],
  top.map(([key, micros]) => [
    ...key.split('\t'),
    (micros / 1000).toFixed(0),
    key.startsWith('(idle)') ? '–' : ((micros / busy) * 100).toFixed(1),
  ]),
);
