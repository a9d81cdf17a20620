import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Writes `.br` and `.gz` beside every text file of the build: the server sends them as they
 * are (@fastify/static's preCompressed) instead of compressing on each request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'loupe-precompress',
    apply: 'build',
    configResolved(config) {
      // Relative to the project root, not to the process's working directory (the e2e tests build from the repository's root).
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
      const texts = entries.filter((entry) => entry.isFile() && /\.(js|css|html|svg|json)$/.test(entry.name));
      await Promise.all(
        texts.map(async (entry) => {
          const path = join(entry.parentPath, entry.name);
          const data = await readFile(path);
          if (data.length < 1024) return;
          await writeFile(`${path}.br`, await brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          await writeFile(`${path}.gz`, await gzipped(data, { level: 9 }));
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  build: {
    target: 'es2022',
    // Sizes are printed with their gzip size; the initial route must stay under 250 KB gzipped.
    reportCompressedSize: true,
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `npm run dev -w packages/dashboard` next to a running server (`npm start`).
    proxy: { '/api': 'http://localhost:8080', '/cdn': 'http://localhost:8080' },
  },
});
