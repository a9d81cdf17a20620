import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm install` (the root's `prepare`) builds the dashboard. */
export const DASHBOARD_DIST = fileURLToPath(new URL('../../../dashboard/dist/', import.meta.url));

/** Paths that belong to the APIs and the CDN: an unknown one there is a JSON 404, never the app. */
const SERVER_PREFIXES = ['/api/', '/cdn/', '/mcp', '/r/'];

/**
 * Vite's page is a module script and a stylesheet from our origin; style attributes (React's
 * `style={…}`) need 'unsafe-inline' in style-src. Images may come from a project's custom domain.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' data: blob: https: http:",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const NOT_BUILT = `The dashboard is not built. Run \`npm install\` (its prepare step builds it) or
\`npm run build -w packages/dashboard\`, then start the server again.
The APIs work without it: see /api/docs.
`;

/** Every file of the build, as URL paths (`/assets/index-3f2a.js`), without the compressed copies. */
async function builtFiles(directory: string): Promise<Set<string>> {
  try {
    const entries = await readdir(directory, { recursive: true, withFileTypes: true });
    return new Set(
      entries
        .filter((entry) => entry.isFile() && !/\.(br|gz)$/.test(entry.name))
        .map((entry) => `/${relative(directory, join(entry.parentPath, entry.name)).split(sep).join('/')}`),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw error;
  }
}

/** The decoded path of a request URL; undefined when its escapes are malformed. */
function urlPath(url: string): string | undefined {
  try {
    return decodeURIComponent(url.split('?')[0] as string);
  } catch {
    return undefined;
  }
}

function wantsHtml(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * Serves the built dashboard at `/` (DESIGN.md §4): its files as they are, with the
 * precompressed copies the build wrote when the browser accepts them; hashed assets cached
 * for a year, `index.html` revalidated every time so a new build is seen at once; and any
 * other page a browser asks for (`/w/…/images`) answered with `index.html`, whose client-side
 * router takes it from there.
 */
export async function registerDashboard(app: FastifyInstance, options: { directory?: string } = {}): Promise<void> {
  const directory = (options.directory ?? DASHBOARD_DIST).replace(/\/?$/, '/');
  const files = await builtFiles(directory);

  await app.register(async (scope) => {
    if (!files.has('/index.html')) {
      scope.get('/', async (_request, reply) =>
        reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT),
      );
      return;
    }
    await scope.register(fastifyStatic, { root: directory, serve: false, preCompressed: true });

    const sendIndex = (reply: FastifyReply) =>
      reply
        .header('cache-control', 'no-cache')
        .header('content-security-policy', CONTENT_SECURITY_POLICY)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'same-origin')
        .sendFile('index.html', { cacheControl: false });

    scope.get('/*', async (request, reply) => {
      const path = urlPath(request.url);
      if (path === undefined) return reply.callNotFound();
      if (path === '/' || path === '/index.html') return sendIndex(reply);
      if (files.has(path)) {
        // Vite names what it builds under assets/ by content hash: a changed file is a new URL.
        const hashed = path.startsWith('/assets/');
        return reply.sendFile(path.slice(1), hashed ? { maxAge: '365d', immutable: true } : { maxAge: 0 });
      }
      if (wantsHtml(request) && !SERVER_PREFIXES.some((prefix) => path.startsWith(prefix))) return sendIndex(reply);
      return reply.callNotFound();
    });
  });
}
