import { execFile } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const run = promisify(execFile);
const sdkDir = fileURLToPath(new URL('../../', import.meta.url));
const repoRoot = resolve(sdkDir, '../..');

/** Where `npm run build -w packages/sdk` writes the package; `npm pack packages/sdk/dist` packs it. */
export const defaultPackageDir = join(sdkDir, 'dist');

/** Declarations land under `types/` as `sdk/src/…` and `contract/src/…` (tsconfig.declarations.json's rootDir). */
const typesEntry = 'types/sdk/src/index.d.ts';
const contractTypesEntry = 'types/contract/src/index.d.ts';

/**
 * Builds the publishable `@loupe/sdk` into `outDir`: one ESM file with the contract bundled in (zod stays a
 * dependency), the declarations of the SDK and of the contract, a README and a package.json of its own.
 * The workspace's package.json keeps pointing at the TypeScript sources, which Node runs as they are there
 * but not under a consumer's node_modules.
 */
export async function buildPackage(outDir: string = defaultPackageDir): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await Promise.all([bundleJavaScript(outDir), emitDeclarations(outDir)]);
  await writeFile(join(outDir, 'package.json'), `${JSON.stringify(await publishedManifest(), null, 2)}\n`);
  await copyFile(join(sdkDir, 'README.md'), join(outDir, 'README.md'));
}

async function bundleJavaScript(outDir: string): Promise<void> {
  await build({
    entryPoints: [join(sdkDir, 'src/index.ts')],
    outfile: join(outDir, 'index.js'),
    bundle: true,
    format: 'esm',
    // Neither Node's nor the browser's: the entry uses only what both have (fetch, Web Crypto, streams).
    platform: 'neutral',
    target: ['es2022', 'node20'],
    external: ['zod'],
    logLevel: 'warning',
  });
}

async function emitDeclarations(outDir: string): Promise<void> {
  const tsc = join(repoRoot, 'node_modules/.bin/tsc');
  await run(tsc, ['-p', join(sdkDir, 'tsconfig.declarations.json'), '--outDir', join(outDir, 'types')]);
  // The sources import with `.ts` and name the contract by its workspace package, which is not published:
  // point both at the declarations beside them.
  const typesDir = join(outDir, 'types');
  const files = (await readdir(typesDir, { recursive: true })).filter((file) => file.endsWith('.d.ts'));
  await Promise.all(
    files.map(async (file) => {
      const path = join(typesDir, file);
      const contract = relative(dirname(path), join(outDir, contractTypesEntry)).replace(/\.d\.ts$/, '.js');
      const text = await readFile(path, 'utf8');
      await writeFile(
        path,
        text
          .replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]*)\.ts\2/g, '$1$2$3.js$2')
          .replace(/(from\s+|import\()(['"])@loupe\/contract\2/g, `$1$2${contract.startsWith('.') ? contract : `./${contract}`}$2`),
      );
    }),
  );
}

async function publishedManifest(): Promise<Record<string, unknown>> {
  const sdk = JSON.parse(await readFile(join(sdkDir, 'package.json'), 'utf8'));
  const contract = JSON.parse(await readFile(join(repoRoot, 'packages/contract/package.json'), 'utf8'));
  return {
    name: sdk.name,
    version: sdk.version,
    description: sdk.description,
    type: 'module',
    sideEffects: false,
    engines: { node: '>=20' },
    exports: {
      '.': { types: `./${typesEntry}`, import: './index.js', default: './index.js' },
      './package.json': './package.json',
    },
    types: `./${typesEntry}`,
    files: ['index.js', 'types'],
    dependencies: { zod: contract.dependencies.zod },
  };
}

if (import.meta.main) {
  const outDir = process.argv[2] ? resolve(process.argv[2]) : defaultPackageDir;
  await buildPackage(outDir);
  console.log(`@loupe/sdk built into ${relative(process.cwd(), outDir) || '.'}`);
}
