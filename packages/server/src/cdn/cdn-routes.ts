import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { ACCEPT_CH, readClientHints } from './client-hints.ts';
import type { Delivery, DeliveryRequest, DeliveryService } from './delivery-service.ts';
import type { DeliveryStore } from './delivery-store.ts';

/** Variants never change under a URL: the key includes the original's version and every transform. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** A user's SVG served as is must not run anything on our origin. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
/** How long a Host → project answer is remembered; a new custom domain starts working within this. */
const DOMAIN_TTL_MS = 10_000;

async function answer(reply: FastifyReply, delivery: Delivery) {
  const { variant } = delivery;
  reply.header('etag', variant.etag).header('cache-control', CACHE_CONTROL).header('x-cache', delivery.cacheStatus);
  const vary = [...(delivery.varyOnAccept ? ['Accept'] : []), ...delivery.varyOnHints];
  if (vary.length > 0) reply.header('vary', vary.join(', '));
  if (delivery.notModified) return reply.code(304).send();
  return reply
    .header('content-type', variant.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .send(variant.data);
}

/** Splits the raw URL: signatures cover the path exactly as sent, so Fastify's decoded params are not used. */
function splitUrl(url: string, prefix: string): { rest: string; search: URLSearchParams } {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  return { rest: path.slice(prefix.length), search: new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1)) };
}

/**
 * `GET /cdn/<slug>/<path>` (spec §4), and the same images at `/<path>` on a project's
 * custom domain (DESIGN.md §4).
 */
export function registerCdnRoutes(
  app: FastifyInstance,
  options: { delivery: DeliveryService; store: DeliveryStore; publicHost: string },
): void {
  const { delivery } = options;
  const deliver = (request: FastifyRequest, reply: FastifyReply, target: Pick<DeliveryRequest, 'project' | 'encodedPath' | 'search'>) =>
    delivery
      .deliver({
        ...target,
        accept: request.headers.accept,
        ifNoneMatch: request.headers['if-none-match'],
        hints: readClientHints(request.headers),
        // Every answer of such a project announces the hints, errors and 304s included.
        onProject: (project) => {
          if (project.clientHints) reply.header('accept-ch', ACCEPT_CH);
        },
      })
      .then((served) => answer(reply, served));

  app.get('/cdn/*', async (request, reply) => {
    const { rest, search } = splitUrl(request.url, '/cdn/');
    const slash = rest.indexOf('/');
    const slug = slash === -1 ? rest : rest.slice(0, slash);
    return deliver(request, reply, {
      project: { slug: decodeURIComponent(slug) },
      encodedPath: slash === -1 ? '' : rest.slice(slash + 1),
      search,
    });
  });

  const domains = new LRUCache<string, { known: boolean }>({ max: 10_000, ttl: DOMAIN_TTL_MS });
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const host = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    // Custom domains are hostnames with a dot (see the contract); IPs, localhost and our own host never are.
    if (!host.includes('.') || host === options.publicHost || /^[\d.]+$|^\[/.test(host)) return;
    let known = domains.get(host);
    if (!known) {
      known = { known: (await options.store.project({ domain: host }, new Date().toISOString())) !== undefined };
      domains.set(host, known);
    }
    if (!known.known) return;
    const { rest, search } = splitUrl(request.url, '/');
    return deliver(request, reply, { project: { domain: host }, encodedPath: rest, search });
  });
}
