import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const nodeBuiltins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const sdkDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * Bundles `entry` (module source) for the browser as a page's bundler would (the `browser` export condition
 * first) and answers every import of a Node built-in in its graph, as "importer → module".
 */
async function nodeImports(entry: { contents: string }): Promise<string[]> {
  const found: string[] = [];
  const recordBuiltins: Plugin = {
    name: 'record-node-builtins',
    setup(bundler) {
      bundler.onResolve({ filter: /.*/ }, (args) => {
        if (!nodeBuiltins.has(args.path)) return undefined;
        found.push(`${args.importer.replace(sdkDir, '')} → ${args.path}`);
        return { path: args.path, external: true };
      });
    },
  };
  await build({
    stdin: { contents: entry.contents, loader: 'ts', resolveDir: sdkDir },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    logLevel: 'silent',
    plugins: [recordBuiltins],
  });
  return found;
}

describe('browser entry', () => {
  it('imports no Node built-in anywhere in its graph (contract and zod included)', async () => {
    // Through the package name, so its `exports` map is resolved with the browser's conditions.
    assert.deepEqual(await nodeImports({ contents: "export * from '@loupe/sdk';" }), []);
  });

  it('would be caught importing one', async () => {
    const found = await nodeImports({ contents: "export * from './index.ts';\nexport { readFile } from 'node:fs/promises';" });
    assert.deepEqual(found, ['<stdin> → node:fs/promises']);
  });
});
