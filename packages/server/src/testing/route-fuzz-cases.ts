import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { CSRF_HEADER, sessionPaths, transformNames, transformShortNames } from '@loupe/contract';
import { DASHBOARD_DIST } from '../dashboard/dashboard-routes.ts';
import type { FuzzWorkspace } from './fuzz-fixtures.ts';
import { badBodies, badFields, oddPathSegments, oddQueryPairsFor, oddQueryValuesFor, pick, show } from './fuzz-inputs.ts';
import type { SentCase } from './fuzz-run.ts';
import type { RawRequest } from './raw-request.ts';
import { SWAGGER_UI_STATIC, traversalPaths } from './traversal-cases.ts';

/**
 * What an answer may be besides "not a 5xx and no file from outside the served folders":
 * `json`, a 4xx is DESIGN.md §4's error body; `page`, a 4xx is that or an HTML page;
 * `mcp`, JSON-RPC (mcp-fuzz-cases.ts).
 */
export type Answers = 'json' | 'page' | 'mcp';

/** One request of the pass over the routes outside the registry. */
export interface RouteCase extends SentCase {
  answers: Answers;
}

/** What the routes are fuzzed around: real resources, so bad input reaches past "not found". */
export interface RouteFixtures {
  own: FuzzWorkspace;
  foreign: FuzzWorkspace;
  /** The slug of `own`'s image project, which has the image `imagePath` and the custom domain `domain`. */
  slug: string;
  imagePath: string;
  domain: string;
  /** A project that serves signed URLs only, and a path and query the server signed for it. */
  signedSlug: string;
  signedUrl: string;
  /** The token of a live two-step upload slot. */
  uploadToken: string;
  metricsToken: string;
  /** A signed-in member's session. */
  session: { cookie: string; csrfToken: string };
}

const METHODS = ['HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const odd = (answers: Answers, label: string, request: RawRequest): RouteCase => ({ label, request, answers });
const get = (answers: Answers, label: string, path: string, headers: Record<string, string> = {}) =>
  odd(answers, label, { method: 'GET', path, headers });
const json = (
  method: string,
  path: string,
  body: string | Buffer,
  contentType: string | null,
  headers: Record<string, string> = {},
): RawRequest => ({
  method,
  path,
  headers: contentType === null ? headers : { ...headers, 'content-type': contentType },
  body,
});

/** Every other method on `path`, with and without a body. */
function otherMethods(answers: Answers, path: string, headers: Record<string, string> = {}): RouteCase[] {
  return METHODS.map((method, index) =>
    odd(
      answers,
      `${method} ${path.slice(0, 40)}`,
      index % 2 === 0 ? { method, path, headers } : json(method, path, '{"a":1}', 'application/json', headers),
    ),
  );
}

/** Bad bodies and bad fields around `good`, a body the route takes. */
function bodyCases(method: string, path: string, good: object, random: () => number, headers: Record<string, string> = {}): RouteCase[] {
  const text = JSON.stringify(good);
  return [
    ...badBodies(text, random).map(({ label, body, contentType }) => odd('json', label, json(method, path, body, contentType, headers))),
    ...badFields(good, random).map(({ label, body }) =>
      odd('json', label, json(method, path, JSON.stringify(body), 'application/json', headers)),
    ),
  ];
}

const cookieVariants = (real: string) => [
  `loupe_session=${'A'.repeat(43)}`,
  'loupe_session=%E0',
  `loupe_session=${'x'.repeat(8000)}`,
  'loupe_session=a; loupe_session=b',
  `__proto__=1; ${real}`,
  `${real}x`,
  real.toUpperCase(),
  ';;;=',
  'loupe_session',
];

/** GET, POST (sign in) and DELETE (sign out) of /api/session. */
export function sessionCases(fixtures: RouteFixtures, random: () => number): RouteCase[] {
  const path = sessionPaths.session;
  const { cookie, csrfToken } = fixtures.session;
  const signIn = { email: 'fuzz-nobody@example.test', password: 'not the password' };
  const origins = ['null', 'http://evil.example', '%E0', 'x'.repeat(8000), '', 'http://127.0.0.1:1'];
  return [
    ...[cookie, ...cookieVariants(cookie)].map((value) => get('json', `GET with the cookie ${show(value)}`, path, { cookie: value })),
    ...oddQueryPairsFor(random).map((pair) => get('json', `GET ?${show(pair)}`, `${path}?${pair}`, { cookie })),
    ...bodyCases('POST', path, signIn, random),
    ...origins.map((origin) =>
      odd('json', `POST from the origin ${show(origin)}`, json('POST', path, JSON.stringify(signIn), 'application/json', { origin })),
    ),
    // Drawn: each sign-in that reaches the password check costs a scrypt.
    ...pick(cookieVariants(cookie), 3, random).map((value) =>
      odd('json', `POST with the cookie ${show(value)}`, json('POST', path, JSON.stringify(signIn), 'application/json', { cookie: value })),
    ),
    // Never the session's cookie and token together: that would sign it out for the cases after.
    ...['', 'x', 'x'.repeat(8000), '%00', `${csrfToken}x`, csrfToken.toUpperCase()].map((token) =>
      odd('json', `DELETE with the CSRF token ${show(token)}`, { method: 'DELETE', path, headers: { cookie, [CSRF_HEADER]: token } }),
    ),
    ...cookieVariants(cookie)
      .filter((value) => !value.endsWith(`; ${cookie}`))
      .map((value) =>
        odd('json', `DELETE with the cookie ${show(value)}`, {
          method: 'DELETE',
          path,
          headers: { cookie: value, [CSRF_HEADER]: csrfToken },
        }),
      ),
    ...badBodies('{}', random).map(({ label, body, contentType }) =>
      odd('json', `DELETE with ${label}`, json('DELETE', path, body, contentType, { cookie: cookieVariants(cookie)[0]! })),
    ),
    ...otherMethods('json', path, { cookie }).filter((fuzz) => !['POST', 'DELETE'].includes(fuzz.request.method)),
  ];
}

/** GET and POST of /api/setup (the first run). */
export function setupCases(random: () => number): RouteCase[] {
  const path = sessionPaths.setup;
  const good = { name: 'Fuzz Owner', email: 'fuzz-owner@example.test', password: 'fuzz password 22', workspaceName: 'Fuzz' };
  return [
    ...oddQueryPairsFor(random).map((pair) => get('json', `GET ?${show(pair)}`, `${path}?${pair}`)),
    ...bodyCases('POST', path, good, random),
    ...['null', 'http://evil.example', '%E0'].map((origin) =>
      odd('json', `POST from the origin ${show(origin)}`, json('POST', path, '{}', 'application/json', { origin })),
    ),
    ...otherMethods('json', path).filter((fuzz) => fuzz.request.method !== 'POST'),
  ];
}

/** PUT /api/images/uploads/{token}, the second step of a two-step upload. */
export function uploadTargetCases(fixtures: RouteFixtures, random: () => number): RouteCase[] {
  const token = fixtures.uploadToken;
  const at = (value: string) => `/api/images/uploads/${value}`;
  const tokens = [
    ...oddPathSegments(random),
    `${token}x`,
    token.toUpperCase(),
    `${token}%00`,
    `${token}/..`,
    'A'.repeat(43),
    'x'.repeat(101),
    '',
  ];
  const types = [
    'image/png; charset=%E0',
    'x'.repeat(1000),
    'multipart/form-data; boundary=x',
    'multipart/form-data',
    'application/json',
    '*/*',
    '',
  ];
  return [
    ...tokens.map((value) => odd('json', `the token ${show(value)}`, json('PUT', at(value), 'not an image', 'image/png'))),
    ...badBodies('{}', random).map(({ label, body, contentType }) => odd('json', label, json('PUT', at(token), body, contentType))),
    ...types.map((type) => odd('json', `the content type ${show(type)}`, json('PUT', at(token), '--x\r\n\r\nabc', type))),
    odd('json', '2 MB that are not an image', json('PUT', at(token), Buffer.alloc(2 * 1024 * 1024, 7), 'image/jpeg')),
    ...otherMethods('json', at(token)).filter((fuzz) => fuzz.request.method !== 'PUT'),
    get('json', 'GET', at(token)),
  ];
}

/** Query names the CDN takes: every transform's long and short name, the preset, the signature, its expiry, a version. */
const cdnNames = [...transformNames, ...Object.values(transformShortNames), 't', 's', 'exp', 'v'] as string[];
const alwaysCdnNames = ['w', 't', 's', 'exp', 'f'];
const DRAWN_CDN_NAMES = 6;

/** Queries for an image path: each name given odd values, given twice, and odd pairs. */
function cdnQueries(random: () => number): { label: string; query: string }[] {
  const names = [
    ...alwaysCdnNames,
    ...pick(
      cdnNames.filter((name) => !alwaysCdnNames.includes(name)),
      DRAWN_CDN_NAMES,
      random,
    ),
  ];
  return [
    ...names.flatMap((name) =>
      oddQueryValuesFor(random).map((value) => ({ label: `?${name}=${show(value)}`, query: `w=32&${name}=${value}` })),
    ),
    ...names.map((name) => ({ label: `${name} twice`, query: `${name}=1&${name}=2` })),
    ...oddQueryPairsFor(random).map((pair) => ({ label: `?${show(pair)}`, query: `w=32&${pair}` })),
  ];
}

/** GET /cdn/<slug>/<path>?…, unsigned and signed. */
export function cdnCases(fixtures: RouteFixtures, random: () => number): RouteCase[] {
  const { slug, imagePath, signedSlug, signedUrl } = fixtures;
  const image = `/cdn/${slug}/${imagePath}`;
  const [signedPath, signedQuery] = signedUrl.split('?') as [string, string];
  const withSigned = (name: string, value: string) => {
    const params = new URLSearchParams(signedQuery);
    return `${signedPath}?${[...params].map(([key, given]) => `${key}=${key === name ? value : encodeURIComponent(given)}`).join('&')}`;
  };
  const accepts = ['*/*;q=abc', 'image/avif;q=2, image/webp;q=-1', 'x'.repeat(8000), '', 'image/*, image/jxl'];
  const tags = ['*', 'W/"x"', '"', 'x'.repeat(8000), '"a", "b", W/""'];
  return [
    get('json', 'the image as it should be', `${image}?w=32`),
    ...oddPathSegments(random).map((value) => get('json', `the slug ${show(value)}`, `/cdn/${value}/${imagePath}?w=32`)),
    ...[
      ...oddPathSegments(random),
      `${imagePath}/`,
      imagePath.toUpperCase(),
      `${imagePath}%00.png`,
      `%2e%2e/${imagePath}`,
      'a/'.repeat(2000),
    ].map((value) => get('json', `the image path ${show(value)}`, `/cdn/${slug}/${value}?w=32`)),
    ...cdnQueries(random).map(({ label, query }) => get('json', label, `${image}?${query}`)),
    get('json', 'a signed URL', signedUrl),
    get('json', 'a signed project, unsigned', `/cdn/${signedSlug}/${imagePath}?w=32`),
    ...['s', 'exp'].flatMap((name) =>
      oddQueryValuesFor(random, ['0', 'a'.repeat(64), 'f'.repeat(8000)]).map((value) =>
        get('json', `signed, ${name}=${show(value)}`, withSigned(name, value)),
      ),
    ),
    get('json', 'signed, a parameter added', `${signedUrl}&w=64`),
    get('json', 'signed, s twice', `${signedUrl}&s=00`),
    get('json', "signed, another project's slug", signedUrl.replace(`/cdn/${signedSlug}/`, `/cdn/${slug}/`)),
    ...accepts.map((accept) => get('json', `Accept ${show(accept)}`, `${image}?w=32&f=auto`, { accept })),
    ...tags.map((tag) => get('json', `If-None-Match ${show(tag)}`, `${image}?w=32`, { 'if-none-match': tag })),
    ...traversalPaths(`/cdn/${slug}/`, DASHBOARD_DIST, random).map(({ label, path }) => get('json', label, path)),
    ...otherMethods('json', `${image}?w=32`),
  ];
}

/** The same images at the root of a project's custom domain, and Host headers that are not quite it. */
export function customDomainCases(fixtures: RouteFixtures, random: () => number): RouteCase[] {
  const { domain, imagePath } = fixtures;
  const on = (label: string, path: string, host = domain) => get('json', `${label} on ${show(host)}`, path, { host });
  const hosts = [
    domain.toUpperCase(),
    `${domain}.`,
    `${domain}:0`,
    `${domain}:99999`,
    `${domain}:abc`,
    `${domain}.evil.test`,
    `x.${domain}`,
    'evil.test',
    '.',
    '..',
    `${'a'.repeat(300)}.test`,
    '[::1]',
    '[::ffff:127.0.0.1]:80',
    '127.0.0.1',
    '%66uzz.example.test',
    '',
  ];
  return [
    on('the image', `/${imagePath}?w=32`),
    on('the root', '/'),
    on('an API path', '/api/v1/teams'),
    ...oddPathSegments(random).map((value) => on(`the path ${show(value)}`, `/${value}?w=32`)),
    ...cdnQueries(random)
      .slice(0, 12)
      .map(({ label, query }) => on(label, `/${imagePath}?${query}`)),
    ...traversalPaths('/', DASHBOARD_DIST, random).map(({ label, path }) => on(label, path)),
    ...hosts.map((host) => on('the image', `/${imagePath}?w=32`, host)),
  ];
}

/** GET /r/{token}, the public page of a shared report. */
export function sharePageCases(fixtures: RouteFixtures, random: () => number): RouteCase[] {
  const token = fixtures.own.ids.shareToken!;
  const tokens = [
    ...oddPathSegments(random),
    token.toUpperCase(),
    `${token}%20`,
    `${token}/`,
    `${token}/x`,
    `${token}?%E0`,
    `${token}%00`,
    fixtures.foreign.ids.shareToken!,
    'A'.repeat(16),
    'A'.repeat(65),
  ];
  return [
    get('page', 'a shared report', `/r/${token}`),
    ...tokens.map((value) => get('page', `the token ${show(value)}`, `/r/${value}`)),
    ...traversalPaths('/r/', DASHBOARD_DIST, random).map(({ label, path }) => get('page', label, path, { accept: 'text/html' })),
    get('page', 'no token', '/r/'),
    ...otherMethods('page', `/r/${token}`),
  ];
}

/** /healthz, /readyz and /metrics (behind its token). */
export function healthCases(fixtures: RouteFixtures, random: () => number): RouteCase[] {
  const bearer = { authorization: `Bearer ${fixtures.metricsToken}` };
  const authorizations = [
    '',
    'Bearer',
    'Bearer ',
    `Bearer ${fixtures.metricsToken}x`,
    `bearer ${fixtures.metricsToken}`,
    `Basic ${Buffer.from(`x:${fixtures.metricsToken}`).toString('base64')}`,
    `Bearer ${'x'.repeat(8000)}`,
    `Bearer ${fixtures.metricsToken}, Bearer x`,
    `Bearer ${fixtures.own.key}`,
  ];
  return [
    ...['/healthz', '/readyz', '/metrics'].flatMap((path) => [
      ...[...oddQueryPairsFor(random), '%E0', `x=${'y'.repeat(8000)}`].map((pair) =>
        get('json', `${path}?${show(pair)}`, `${path}?${pair}`, bearer),
      ),
      get('json', `${path}/`, `${path}/`, bearer),
      get('json', `${path}%00`, `${path}%00`, bearer),
      ...otherMethods('json', path, bearer),
    ]),
    ...authorizations.map((authorization) =>
      get('json', `/metrics with Authorization ${show(authorization)}`, '/metrics', { authorization }),
    ),
  ];
}

/** /api/openapi.json and the reference UI at /api/docs, with the files it serves. */
export function docsCases(random: () => number): RouteCase[] {
  return [
    ...[...oddQueryPairsFor(random), '%E0'].map((pair) => get('json', `/api/openapi.json?${show(pair)}`, `/api/openapi.json?${pair}`)),
    ...['*/*;q=abc', 'text/html', 'application/yaml', 'x'.repeat(8000)].map((accept) =>
      get('json', `/api/openapi.json, Accept ${show(accept)}`, '/api/openapi.json', { accept }),
    ),
    ...otherMethods('json', '/api/openapi.json'),
    ...[
      '/api/docs',
      '/api/docs/',
      '/api/docs/json',
      '/api/docs/yaml',
      '/api/docs/static/index.html',
      '/api/docs/static/',
      '/api/docs/static/swagger-ui-bundle.js',
    ].map((path) => get('page', path, path)),
    ...oddPathSegments(random).flatMap((value) => [
      get('page', `/api/docs/${show(value)}`, `/api/docs/${value}`),
      get('page', `/api/docs/static/${show(value)}`, `/api/docs/static/${value}`),
    ]),
    ...traversalPaths('/api/docs/static/', SWAGGER_UI_STATIC, random).map(({ label, path }) => get('page', label, path)),
    ...traversalPaths('/api/docs/', SWAGGER_UI_STATIC, random).map(({ label, path }) => get('page', label, path)),
    ...otherMethods('page', '/api/docs'),
  ];
}

/** The dashboard's files and pages: climbing out of its build folder, NUL bytes, long paths, odd ranges. */
export function dashboardCases(random: () => number): RouteCase[] {
  const html = { accept: 'text/html' };
  const climbs = [...traversalPaths('/', DASHBOARD_DIST, random), ...traversalPaths('/assets/', join(DASHBOARD_DIST, 'assets'), random)];
  const paths = [
    '/index.html%00',
    '/index.html%00.js',
    '/assets/%00',
    '/%00',
    '/favicon.svg%00.html',
    '//etc/passwd',
    '/%2fetc%2fpasswd',
    '/%5cetc%5cpasswd',
    '/.env',
    '/.git/config',
    '/assets/',
    '/assets',
    '/index.html/..',
    '/favicon.svg/',
    `/${'a'.repeat(8000)}`,
    `/assets/${'a/'.repeat(4000)}`,
  ];
  const ranges = [
    'bytes=999999-',
    'bytes=-1',
    `bytes=${Array.from({ length: 200 }, (_, index) => `${index}-${index}`).join(',')}`,
    'bytes=x',
    'lines=1-2',
  ];
  return [
    ...climbs.flatMap(({ label, path }, index) => [get('page', label, path, index % 2 === 0 ? html : {})]),
    ...paths.flatMap((path) => [get('page', show(path), path), get('page', `${show(path)} as a page`, path, html)]),
    ...ranges.map((range) => get('page', `favicon.svg, Range ${show(range)}`, '/favicon.svg', { range })),
    ...['br;q=abc', 'gzip, br, *;q=0', 'x'.repeat(8000)].map((encoding) =>
      get('page', `/, Accept-Encoding ${show(encoding)}`, '/', { 'accept-encoding': encoding }),
    ),
    ...[
      ['if-modified-since', 'x'],
      ['if-modified-since', '9'.repeat(100)],
      ['if-unmodified-since', 'Thu, 01 Jan 1970 00:00:00 GMT'],
      ['if-match', '"not-this-one"'],
      ['if-none-match', '*'],
    ].map(([name, value]) => get('page', `favicon.svg, ${name} ${show(value)}`, '/favicon.svg', { [name!]: value! })),
    ...otherMethods('page', '/'),
  ];
}

/** A request as written on the socket, to 127.0.0.1. */
const wire = (label: string, text: string): RouteCase => ({ label, answers: 'json', request: { method: 'RAW', path: label, wire: text } });
const request = (line: string, headers: string[] = []) =>
  `${line}\r\n${['Host: 127.0.0.1', ...headers, 'Connection: close'].join('\r\n')}\r\n\r\n`;

/** Requests Node's HTTP parser refuses before any route: they are answered all the same. */
export function parserCases(fixtures: RouteFixtures): RouteCase[] {
  const chunked = (body: string) =>
    `POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${body}`;
  return [
    wire('a 20 KB request line', request(`GET /${'a'.repeat(20_000)} HTTP/1.1`)),
    wire('a 100 KB request line', request(`GET /cdn/${fixtures.slug}/${'a'.repeat(100_000)} HTTP/1.1`)),
    wire('a 20 KB cookie', request('GET /api/session HTTP/1.1', [`Cookie: loupe_session=${'x'.repeat(20_000)}`])),
    wire('a NUL in the path', request(`GET /cdn/${fixtures.slug}/a\u0000b.gif HTTP/1.1`)),
    wire('a NUL in a header', request('GET /r/x HTTP/1.1', ['X-Fuzz: a\u0000b'])),
    wire('a space in the path', request('GET /a b HTTP/1.1')),
    wire('an unknown method', request('BREW / HTTP/1.1')),
    wire('a header without a colon', request('GET /healthz HTTP/1.1', ['X-Fuzz'])),
    wire('a folded header', request('GET /healthz HTTP/1.1', ['X-Fuzz: a', ' b'])),
    wire('a Content-Length that is not a number', request('POST /mcp HTTP/1.1', ['Content-Length: abc'])),
    wire('two Content-Lengths', request('POST /api/session HTTP/1.1', ['Content-Length: 1', 'Content-Length: 2'])),
    wire(
      'Content-Length and Transfer-Encoding',
      `POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`,
    ),
    wire('a chunk size that is not hex', chunked('zz\r\n{}\r\n0\r\n\r\n')),
    wire('HTTP/2.0 on an HTTP/1 socket', request('GET /healthz HTTP/2.0')),
    wire('HTTP/9.9', request('GET /healthz HTTP/9.9')),
    wire('an absolute URI to another host', request(`GET http://evil.test/cdn/${fixtures.slug}/x.gif HTTP/1.1`)),
    wire('a request id with a NUL', request('GET /healthz HTTP/1.1', [`X-Request-Id: ${randomUUID()}\u0000`])),
  ];
}
