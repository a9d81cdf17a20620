/**
 * What a server spent its CPU on during one part of a bench: reads a V8 `.cpuprofile` (written
 * by `--cpu-prof`, e.g. through the search bench's BENCH_NODE_FLAGS) and prints, for the samples
 * taken between two monotonic µs stamps (the bench prints each run's), the functions by self time
 * and by total time (self and what they called). Run by hand:
 *
 *   node_modules/.bin/node bench/profile-window.ts <file.cpuprofile> [fromUs toUs] [rows]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, from, to, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-window.ts <file.cpuprofile> [fromUs toUs] [rows]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const window = { from: from ? Number(from) : -Infinity, to: to ? Number(to) : Infinity };
const rows = rowsArg ? Number(rowsArg) : 40;

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

const nameOf = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${url.replace(/^file:\/\/.*?\/(node_modules|packages)\//, '$1/')}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${where}`.trim();
};

const self = new Map<string, number>();
const total = new Map<string, number>();
let at = profile.startTime;
let counted = 0;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i]!;
  if (at < window.from || at > window.to) continue;
  const delta = profile.timeDeltas[i + 1] ?? 0;
  counted += delta;
  let node = byId.get(profile.samples[i]!)!;
  self.set(nameOf(node), (self.get(nameOf(node)) ?? 0) + delta);
  // Each function once per sample, however deep it recurses.
  const seen = new Set<string>();
  for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
    node = byId.get(id)!;
    const name = nameOf(node);
    if (seen.has(name)) continue;
    seen.add(name);
    total.set(name, (total.get(name) ?? 0) + delta);
  }
}

const print = (title: string, times: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, us] of [...times].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / counted).toFixed(1).padStart(5)}%  ${name}`);
  }
};
console.log(`${(counted / 1000).toFixed(0)} ms of samples in the window`);
print('self time', self);
print('total time', total);
