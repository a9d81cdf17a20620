/**
 * The layout's rules, read from the imports TypeScript itself parses (its program over the root
 * tsconfig.json), so comments, strings and `import()` calls are told apart as the compiler does.
 *
 * - The capability folders of packages/server/src (a folder is the first path segment under src)
 *   import each other one way only. The files at src's root (composition.ts, app.ts, server.ts,
 *   cli.ts, config.ts, ...) are the wiring root that puts the folders together: they stand outside
 *   the graph. So does test code (`*.test.ts`, `test-*.ts`, `testing/`), which may reach across
 *   folders to build what it tests. `import type` counts: a folder that needs another's types to be
 *   read is as tied to it as one that needs its values.
 * - packages/contract is shared with the browser and the SDK: it imports zod and its own files only
 *   (its tests may use node: built-ins too).
 */
import assert from 'node:assert/strict';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { StringLiteral } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER_SRC = join(ROOT, 'packages/server/src');
const CONTRACT_SRC = join(ROOT, 'packages/contract/src');

/** Every source file under the root tsconfig.json, with the module specifiers it imports. */
const importsByFile = new Map<string, string[]>();
let api: API | undefined;

before(() => {
  api = new API({ cwd: ROOT });
  const project = api.updateSnapshot({ openProjects: [join(ROOT, 'tsconfig.json')] }).getProjects()[0];
  for (const fileName of project.program.getSourceFileNames()) {
    if (!fileName.startsWith(SERVER_SRC + sep) && !fileName.startsWith(CONTRACT_SRC + sep)) continue;
    const file = project.program.getSourceFile(fileName);
    const specifiers = file?.imports.map((specifier) => (specifier as StringLiteral).text);
    importsByFile.set(fileName, specifiers ?? []);
  }
});

after(() => api?.close());

const isTestCode = (file: string) =>
  /\.test\.tsx?$/.test(file) || basename(file).startsWith('test-') || relative(SERVER_SRC, file).split(sep)[0] === 'testing';

/** The capability folder of a server source file, or undefined for the wiring root at src's top. */
function folderOf(file: string): string | undefined {
  const segments = relative(SERVER_SRC, file).split(sep);
  return segments.length > 1 && segments[0] !== '..' ? segments[0] : undefined;
}

/** folder → imported folder → one import that makes the edge, as "a/x.ts imports b/y.ts". */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const [file, specifiers] of importsByFile) {
    const from = folderOf(file);
    if (from === undefined || isTestCode(file)) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const specifier of specifiers) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier);
      const to = folderOf(target);
      if (to === undefined || to === from || isTestCode(target) || edges.has(to)) continue;
      edges.set(to, `${relative(SERVER_SRC, file)} imports ${relative(SERVER_SRC, target)}`);
    }
  }
  return graph;
}

/** The strongly connected components of more than one folder (Tarjan's algorithm). */
function cyclicComponents(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder) as number);
    stack.push(folder);
    for (const next of graph.get(folder)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(folder, Math.min(low.get(folder) as number, index.get(next) as number));
      }
    }
    if (low.get(folder) !== index.get(folder)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) found.push(component.sort());
  };
  for (const folder of [...graph.keys()].sort()) if (!index.has(folder)) visit(folder);
  return found;
}

/** The shortest cycle through `start` within its component: the folders in order, back to `start`. */
function shortestCycle(graph: Map<string, Map<string, string>>, component: string[], start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0 && !cameFrom.has(start)) {
    const folder = queue.shift() as string;
    for (const next of graph.get(folder)?.keys() ?? []) {
      if (!component.includes(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, folder);
      queue.push(next);
    }
  }
  const path = [start];
  for (let at = cameFrom.get(start) as string; at !== start; at = cameFrom.get(at) as string) path.unshift(at);
  return [start, ...path];
}

/** A component as the shortest cycle through each of its folders, each step with an import that makes it. */
function describeComponent(graph: Map<string, Map<string, string>>, component: string[]): string {
  const seen = new Set<string>();
  const lines = [`${component.join(', ')}:`];
  for (const folder of component) {
    const cycle = shortestCycle(graph, component, folder);
    const steps = cycle.slice(1).map((to, i) => `${cycle[i]} → ${to}`);
    if (steps.every((step) => seen.has(step))) continue;
    for (const step of steps) seen.add(step);
    lines.push(`  ${cycle.join(' → ')}`);
    for (let i = 1; i < cycle.length; i++) lines.push(`    ${graph.get(cycle[i - 1])?.get(cycle[i])}`);
  }
  return lines.join('\n');
}

describe('Folder layout', () => {
  it('has no import cycle between the capability folders of packages/server/src', () => {
    const graph = folderGraph();
    assert.ok(graph.size > 10, 'the server folders were read');
    const found = cyclicComponents(graph).map((component) => describeComponent(graph, component));
    if (found.length > 0) assert.fail(`Folders that import each other in a cycle:\n${found.join('\n')}`);
  });

  it('lets packages/contract import only zod and its own files', () => {
    const strays: string[] = [];
    for (const [file, specifiers] of importsByFile) {
      if (!file.startsWith(CONTRACT_SRC + sep)) continue;
      for (const specifier of specifiers) {
        const own = specifier.startsWith('.') && resolve(dirname(file), specifier).startsWith(CONTRACT_SRC + sep);
        const allowed = own || /^zod(\/|$)/.test(specifier) || (/\.test\.ts$/.test(file) && specifier.startsWith('node:'));
        if (!allowed) strays.push(`${relative(ROOT, file)} imports ${specifier}`);
      }
    }
    assert.ok(
      [...importsByFile.keys()].some((file) => file.startsWith(CONTRACT_SRC + sep)),
      'the contract was read',
    );
    if (strays.length > 0) assert.fail(`packages/contract imports more than zod:\n${strays.join('\n')}`);
  });
});
