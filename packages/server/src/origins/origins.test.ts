import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage } from '../testing/test-images.ts';
import { loopbackResolver } from '../testing/test-resolver.ts';
import { startTestS3, type TestS3 } from '../testing/test-s3.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { decode } from '../transform/test-pixels.ts';

/** Largest original the test server stores: small, so a too-large origin file is cheap to send. */
const MAX_UPLOAD = 400_000;

/** A loopback origin that counts every request by path, and answers from a table of routes. */
function startOrigin(routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void>) {
  const asked = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const url = request.url ?? '';
    asked.set(url, (asked.get(url) ?? 0) + 1);
    const route = routes[url];
    if (route) return route(request, response);
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  return {
    asked,
    count: (path: string) => asked.get(path) ?? 0,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A GET with its own Host header (fetch refuses to set one): a custom domain's request. */
function getWithHost(base: string, path: string, host: string) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const outgoing = httpRequest({ host: hostname, port, path, headers: { host } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks) }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const cdnGet = (t: TestServer, path: string, headers: Record<string, string> = {}) =>
  fetch(`${t.url}${path}`, { headers }).then(async (response) => ({
    status: response.status,
    headers: response.headers,
    body: Buffer.from(await response.arrayBuffer()),
  }));

for (const dialect of testDialects()) {
  describe(`origins fetched on demand (${dialect})`, () => {
    let t: TestServer;
    let s3: TestS3;
    let rocket: Buffer;
    let clock = Date.now();
    /** Resolves the held answer of /site/held.jpg. */
    let release: () => void = () => {};
    let released = false;
    let originBase: string;
    let projectId: string;
    let slug: string;
    const origin = startOrigin({
      '/site/photos/rocket.jpg': (_request, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(rocket),
      '/site/again.jpg': (_request, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(rocket),
      '/site/held.jpg': (_request, response) => {
        // Held until released; a second fetch (the failure to catch) is answered too, and counted.
        const answer = () => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(rocket);
        if (released) return answer();
        const earlier = release;
        release = () => {
          released = true;
          earlier();
          answer();
        };
      },
      '/site/error.jpg': (_request, response) => response.writeHead(500).end('broken'),
      '/site/page.jpg': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'),
      '/site/huge.jpg': (_request, response) => {
        // No Content-Length: the bound must hold while reading.
        response.writeHead(200, { 'content-type': 'image/jpeg' });
        response.write(rocket);
        response.end(Buffer.alloc(MAX_UPLOAD, 1));
      },
      '/site/to-metadata.jpg': (_request, response) =>
        response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end(),
      '/site/moved.jpg': (_request, response) => response.writeHead(301, { location: '/site/photos/rocket.jpg' }).end(),
      '/site/domain.jpg': (_request, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(rocket),
      '/site/quota-1.jpg': (_request, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(rocket),
      '/site/quota-2.jpg': (_request, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(rocket),
      '/site/signed.jpg': (_request, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(rocket),
      '/secret.jpg': (_request, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(rocket),
    });
    const originPath = () => `/api/images/projects/${projectId}/origin`;

    before(async () => {
      rocket = await readTestImage('rocket.jpg');
      originBase = `${await origin.listen()}/site/`;
      s3 = await startTestS3();
      t = await startTestServer(dialect, {
        crawlAllowPrivate: true,
        maxUploadBytes: MAX_UPLOAD,
        // More projects than the free plan's three.
        defaultPlan: 'business',
        originNotFoundSeconds: 60,
        // Generous: 100 concurrent requests on a loaded machine must not reach it (a test below has its own server).
        originTimeoutSeconds: 60,
        plans: {
          business: {
            pagesPerCrawl: 100_000,
            monthlyCredits: 500_000,
            imageProjects: null,
            imagesPerProject: null,
            scheduledCrawls: true,
            customRulePacks: true,
          },
          free: {
            pagesPerCrawl: 500,
            monthlyCredits: 1_000,
            imageProjects: 3,
            imagesPerProject: 1,
            scheduledCrawls: false,
            customRulePacks: false,
          },
        },
        originClock: () => clock,
      });
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Origin site' } });
      projectId = project.body.id;
      slug = project.body.slug;
      const set = await t.request('PUT', originPath(), { body: { origin: { kind: 'https', baseUrl: originBase } } });
      assert.equal(set.status, 200, JSON.stringify(set.body));
    });
    after(async () => {
      await t.close();
      await s3.close();
      await origin.close();
    });

    it('fetches a missing image from the origin, stores it as an upload would, and serves the variant', async () => {
      const answer = await cdnGet(t, `/cdn/${slug}/photos/rocket.jpg?w=120&f=png`);
      assert.equal(answer.status, 200, answer.body.toString());
      const pixels = await decode(answer.body);
      const source = await sharp(rocket).metadata();
      assert.equal(pixels.width, 120);
      assert.equal(pixels.height, Math.round((120 * (source.height as number)) / (source.width as number)));
      assert.equal(origin.count('/site/photos/rocket.jpg'), 1);

      const listed = await t.request('GET', `/api/images/projects/${projectId}/images?prefix=photos/`);
      assert.equal(listed.body.length, 1);
      const [image] = listed.body;
      assert.deepEqual(
        [image.path, image.filename, image.width, image.height, image.fileSize],
        ['photos/rocket.jpg', 'rocket.jpg', source.width, source.height, rocket.length],
      );
      assert.equal(typeof image.blurhash, 'string');
    });

    it('never asks the origin again for an image it brought', async () => {
      const before = origin.count('/site/photos/rocket.jpg');
      const original = await cdnGet(t, `/cdn/${slug}/photos/rocket.jpg`);
      assert.equal(original.status, 200);
      // Served as stored, its metadata stripped: the same pixels.
      const pixels = (image: Buffer) => sharp(image).raw().toBuffer();
      assert.ok((await pixels(original.body)).equals(await pixels(rocket)));
      assert.equal((await cdnGet(t, `/cdn/${slug}/photos/rocket.jpg?w=50`)).status, 200);
      assert.equal(origin.count('/site/photos/rocket.jpg'), before);
    });

    it('fetches once for 100 concurrent requests of the same missing path', async () => {
      const requests = Array.from({ length: 100 }, () => cdnGet(t, `/cdn/${slug}/held.jpg?w=64&f=png`));
      // The origin holds its answer until it was asked; the requests meanwhile all wait on that one fetch.
      while (origin.count('/site/held.jpg') === 0) await new Promise((resolve) => setImmediate(resolve));
      release();
      const answers = await Promise.all(requests);
      assert.deepEqual(new Set(answers.map((answer) => answer.status)), new Set([200]));
      assert.ok(answers.every((answer) => answer.body.equals(answers[0]?.body as Buffer)));
      assert.equal((await decode(answers[0]?.body as Buffer)).width, 64);
      assert.equal(origin.count('/site/held.jpg'), 1);
    });

    it('remembers a 404 at the origin for its window, then asks again', async () => {
      const first = await cdnGet(t, `/cdn/${slug}/gone.jpg`);
      assert.equal(first.status, 404);
      assert.equal(JSON.parse(first.body.toString()).code, 'not_found');
      assert.equal((await cdnGet(t, `/cdn/${slug}/gone.jpg?w=10`)).status, 404);
      assert.equal(origin.count('/site/gone.jpg'), 1);
      clock += 59_000;
      assert.equal((await cdnGet(t, `/cdn/${slug}/gone.jpg`)).status, 404);
      assert.equal(origin.count('/site/gone.jpg'), 1);
      clock += 2_000;
      assert.equal((await cdnGet(t, `/cdn/${slug}/gone.jpg`)).status, 404);
      assert.equal(origin.count('/site/gone.jpg'), 2);
    });

    for (const [name, path, code, message] of [
      ['a 5xx', 'error.jpg', 'origin_failed', /HTTP 500/],
      ['a file that is not an image', 'page.jpg', 'origin_failed', /cannot be stored/],
      ['a file over the upload limit', 'huge.jpg', 'origin_failed', /over 400000 bytes/],
      ['a redirect to a private address', 'to-metadata.jpg', 'origin_failed', /another host/],
    ] as const) {
      it(`answers ${name} at the origin with 502 and stores nothing`, async () => {
        const answer = await cdnGet(t, `/cdn/${slug}/${path}`);
        assert.equal(answer.status, 502);
        const body = JSON.parse(answer.body.toString());
        assert.equal(body.code, code);
        assert.match(body.error, message);
        const listed = await t.request('GET', `/api/images/projects/${projectId}/images?prefix=${path}`);
        assert.deepEqual(listed.body, []);
        // Not remembered as missing: asked again next time.
        const again = origin.count(`/site/${path}`);
        await cdnGet(t, `/cdn/${slug}/${path}`);
        assert.equal(origin.count(`/site/${path}`), again + 1);
      });
    }

    it('asks the origin nothing for a request refused anyway (an unknown preset)', async () => {
      const answer = await cdnGet(t, `/cdn/${slug}/again.jpg?t=nope`);
      assert.equal(answer.status, 400);
      assert.equal(origin.count('/site/again.jpg'), 0);
    });

    it('fetches on a custom domain too', async () => {
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Domain origin' } });
      await t.request('PATCH', `/api/images/projects/${project.body.id}`, { body: { customDomain: 'images.origin.test' } });
      await t.request('PUT', `/api/images/projects/${project.body.id}/origin`, {
        body: { origin: { kind: 'https', baseUrl: originBase } },
      });
      const answer = await getWithHost(t.url, '/domain.jpg?w=25&f=png', 'images.origin.test');
      assert.equal(answer.status, 200, answer.body.toString());
      assert.equal((await decode(answer.body)).width, 25);
      assert.equal(origin.count('/site/domain.jpg'), 1);
    });

    it("holds an origin's images to the plan's images per project", async () => {
      const other = await t.createWorkspace({ plan: 'free' });
      const project = await t.request('POST', '/api/images/projects', { key: other.key, body: { name: 'Quota' } });
      await t.request('PUT', `/api/images/projects/${project.body.id}/origin`, {
        key: other.key,
        body: { origin: { kind: 'https', baseUrl: originBase } },
      });
      assert.equal((await cdnGet(t, `/cdn/${project.body.slug}/quota-1.jpg`)).status, 200);
      const over = await cdnGet(t, `/cdn/${project.body.slug}/quota-2.jpg`);
      assert.equal(over.status, 403);
      assert.equal(JSON.parse(over.body.toString()).code, 'plan_limit_reached');
      const listed = await t.request('GET', `/api/images/projects/${project.body.id}/images`, { key: other.key });
      assert.deepEqual(
        listed.body.map((image: { path: string }) => image.path),
        ['quota-1.jpg'],
      );
    });

    it('follows a redirect on the origin’s own host', async () => {
      const answer = await cdnGet(t, `/cdn/${slug}/moved.jpg?w=30&f=png`);
      assert.equal(answer.status, 200);
      assert.equal((await decode(answer.body)).width, 30);
    });

    it('never leaves the origin base for dot segments or encoded slashes', async () => {
      for (const path of [
        '..%2Fsecret.jpg',
        'a/%2E%2E/%2E%2E/secret.jpg',
        '%2E%2E/secret.jpg',
        'a%2F..%2F..%2Fsecret.jpg',
        '..%5Csecret.jpg',
        'a/./b.jpg',
      ]) {
        const answer = await cdnGet(t, `/cdn/${slug}/${path}`);
        assert.equal(answer.status, 404, path);
      }
      assert.equal(origin.count('/secret.jpg'), 0);
      assert.deepEqual(
        [...origin.asked.keys()].filter((asked) => !asked.startsWith('/site/')),
        [],
      );
    });

    it('checks the signature before the origin is asked', async () => {
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Signed origin' } });
      const id = project.body.id;
      await t.request('PUT', `/api/images/projects/${id}/origin`, { body: { origin: { kind: 'https', baseUrl: originBase } } });
      assert.equal((await t.request('POST', `/api/images/projects/${id}/signing`, { body: { requireSignedUrls: true } })).status, 200);
      const unsigned = await cdnGet(t, `/cdn/${project.body.slug}/signed.jpg?w=20`);
      assert.equal(unsigned.status, 403);
      const forged = await cdnGet(t, `/cdn/${project.body.slug}/signed.jpg?w=20&s=${'0'.repeat(64)}`);
      assert.equal(forged.status, 403);
      assert.equal(origin.count('/site/signed.jpg'), 0);
      const signed = await t.request('PUT', `/api/images/projects/${id}/signing`, { body: { path: 'signed.jpg', params: { w: 20 } } });
      const url = new URL(signed.body.url);
      const answer = await cdnGet(t, `${url.pathname}${url.search}`);
      assert.equal(answer.status, 200);
      assert.equal(origin.count('/site/signed.jpg'), 1);
    });

    it('keeps another workspace out: its projects never reach this origin, nor read or set it', async () => {
      const other = await t.createWorkspace();
      const theirs = await t.request('POST', '/api/images/projects', { key: other.key, body: { name: 'Theirs' } });
      assert.equal((await cdnGet(t, `/cdn/${theirs.body.slug}/again.jpg`)).status, 404);
      assert.equal(origin.count('/site/again.jpg'), 0);
      assert.equal((await t.request('GET', originPath(), { key: other.key })).status, 404);
      const set = await t.request('PUT', originPath(), { key: other.key, body: { origin: null } });
      assert.equal(set.status, 404);
      assert.equal((await t.request('GET', originPath())).body.origin.baseUrl, originBase);
    });

    it('lets a viewer read the origin but not set it', async () => {
      const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
      assert.equal((await t.request('GET', originPath(), { key: viewer })).status, 200);
      const set = await t.request('PUT', originPath(), { key: viewer, body: { origin: null } });
      assert.equal(set.status, 403);
      assert.equal((await t.request('GET', originPath())).body.origin.kind, 'https');
    });

    it('fetches from an S3 bucket under a prefix, and keeps it once the object is gone', async () => {
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Bucket origin' } });
      const id = project.body.id;
      await s3.client.send(new PutObjectCommand({ Bucket: s3.config.bucket, Key: 'site/photos/rocket.jpg', Body: rocket }));
      const { endpoint, region, bucket, accessKeyId, secretAccessKey } = s3.config;
      const set = await t.request('PUT', `/api/images/projects/${id}/origin`, {
        body: { origin: { kind: 's3', endpoint, region, bucket, prefix: 'site/', accessKeyId, secretAccessKey } },
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.deepEqual(set.body.origin, { kind: 's3', endpoint, region, bucket, prefix: 'site/', accessKeyId, hasSecret: true });
      assert.ok(!JSON.stringify(set.body).includes(`"${secretAccessKey}"`) || secretAccessKey === accessKeyId);

      const answer = await cdnGet(t, `/cdn/${project.body.slug}/photos/rocket.jpg?w=40&f=png`);
      assert.equal(answer.status, 200, answer.body.toString());
      assert.equal((await decode(answer.body)).width, 40);
      await s3.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'site/photos/rocket.jpg' }));
      assert.equal((await cdnGet(t, `/cdn/${project.body.slug}/photos/rocket.jpg?w=41&f=png`)).status, 200);
      assert.equal((await cdnGet(t, `/cdn/${project.body.slug}/photos/none.jpg`)).status, 404);
    });

    it('keeps a stored S3 secret only for the same endpoint and key id', async () => {
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Secret keeper' } });
      const path = `/api/images/projects/${project.body.id}/origin`;
      const s3Origin = { kind: 's3', endpoint: 'https://s3.example.com', region: 'auto', bucket: 'photos', accessKeyId: 'AKID' };
      const missing = await t.request('PUT', path, { body: { origin: s3Origin } });
      assert.equal(missing.status, 409);
      assert.equal(missing.body.code, 'origin_secret_required');
      assert.equal((await t.request('PUT', path, { body: { origin: { ...s3Origin, secretAccessKey: 'TOPSECRET-VALUE' } } })).status, 200);
      const kept = await t.request('PUT', path, { body: { origin: { ...s3Origin, prefix: 'new/' } } });
      assert.equal(kept.status, 200);
      assert.equal(kept.body.origin.prefix, 'new/');
      const read = await t.request('GET', path);
      assert.ok(!JSON.stringify(read.body).includes('TOPSECRET'));
      assert.equal((await t.request('PUT', path, { body: { origin: { ...s3Origin, endpoint: 'https://evil.example.com' } } })).status, 409);
      assert.equal((await t.request('PUT', path, { body: { origin: { ...s3Origin, accessKeyId: 'OTHER' } } })).status, 409);
      const removed = await t.request('PUT', path, { body: { origin: null } });
      assert.deepEqual(removed.body, { origin: null });
      assert.deepEqual((await t.request('GET', path)).body, { origin: null });
    });

    const s3Base = {
      kind: 's3',
      endpoint: 'https://s3.example.com',
      region: 'us-east-1',
      bucket: 'abc',
      accessKeyId: 'AKID',
      secretAccessKey: 'x',
    };
    for (const [what, origin, ok] of [
      ['an http base URL off loopback', { kind: 'https', baseUrl: 'http://example.com/' }, false],
      ['an ftp base URL', { kind: 'https', baseUrl: 'ftp://example.com/' }, false],
      ['a base URL with a query', { kind: 'https', baseUrl: 'https://example.com/?a=1' }, false],
      ['a base URL with credentials', { kind: 'https', baseUrl: 'https://user:pw@example.com/' }, false],
      ['a base URL of 2049 characters', { kind: 'https', baseUrl: `https://example.com/${'a'.repeat(2029)}` }, false],
      ['a base URL of 2048 characters', { kind: 'https', baseUrl: `https://example.com/${'a'.repeat(2028)}` }, true],
      ['an unknown field', { kind: 'https', baseUrl: 'https://example.com/', extra: 1 }, false],
      ['an unknown kind', { kind: 'ftp', baseUrl: 'https://example.com/' }, false],
      ['a number as base URL', { kind: 'https', baseUrl: 42 }, false],
      ['a base URL that is no URL', { kind: 'https', baseUrl: 'x' }, false],
      ['a bucket of 2 characters', { ...s3Base, bucket: 'ab' }, false],
      ['a bucket of 3 characters', { ...s3Base, bucket: 'abc' }, true],
      ['a bucket of 63 characters', { ...s3Base, bucket: 'a'.repeat(63) }, true],
      ['a bucket of 64 characters', { ...s3Base, bucket: 'a'.repeat(64) }, false],
      ['an upper-case bucket', { ...s3Base, bucket: 'Photos' }, false],
      ['a bucket with ..', { ...s3Base, bucket: 'a..b' }, false],
      ['a bucket that is an IP', { ...s3Base, bucket: '192.168.1.1' }, false],
      ['a prefix with ..', { ...s3Base, prefix: 'a/../b/' }, false],
      ['a prefix starting with /', { ...s3Base, prefix: '/a/' }, false],
      ['a prefix of 513 characters', { ...s3Base, prefix: 'a'.repeat(513) }, false],
      ['an empty access key id', { ...s3Base, accessKeyId: '' }, false],
      ['a secret with a space', { ...s3Base, secretAccessKey: 'a b' }, false],
      ['a secret of 257 characters', { ...s3Base, secretAccessKey: 'a'.repeat(257) }, false],
      ['an http endpoint off loopback', { ...s3Base, endpoint: 'http://s3.example.com' }, false],
      ['an empty region', { ...s3Base, region: '' }, false],
    ] as const) {
      it(`${ok ? 'takes' : 'refuses'} ${what}`, async () => {
        const project = await t.request('POST', '/api/images/projects', { body: { name: `Edge ${what}` } });
        const answer = await t.request('PUT', `/api/images/projects/${project.body.id}/origin`, { body: { origin } });
        assert.equal(answer.status, ok ? 200 : 400, JSON.stringify(answer.body));
        if (!ok) assert.equal(answer.body.code, 'validation_failed');
        await t.request('DELETE', `/api/images/projects/${project.body.id}`);
      });
    }

    it('refuses a body without origin, and a wrong type', async () => {
      assert.equal((await t.request('PUT', originPath(), { body: {} })).status, 400);
      assert.equal((await t.request('PUT', originPath(), { body: { origin: 'https://example.com/' } })).status, 400);
    });
  });

  describe(`an origin that does not answer (${dialect})`, () => {
    let t: TestServer;
    const origin = startOrigin({
      '/hang.jpg': () => {
        // Never answers: the origin timeout ends the wait.
      },
    });
    let slug: string;
    before(async () => {
      const base = await origin.listen();
      t = await startTestServer(dialect, { crawlAllowPrivate: true, originTimeoutSeconds: 1 });
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Hanging' } });
      await t.request('PUT', `/api/images/projects/${project.body.id}/origin`, {
        body: { origin: { kind: 'https', baseUrl: `${base}/` } },
      });
      slug = project.body.slug;
    });
    after(async () => {
      await t.close();
      await origin.close();
    });

    it('answers 504 origin_timeout once LOUPE_ORIGIN_TIMEOUT_SECONDS pass, and stores nothing', async () => {
      const answer = await cdnGet(t, `/cdn/${slug}/hang.jpg`);
      assert.equal(answer.status, 504);
      assert.equal(JSON.parse(answer.body.toString()).code, 'origin_timeout');
      assert.equal(origin.count('/hang.jpg'), 1);
    });
  });

  describe(`origin addresses where private addresses are refused (${dialect})`, () => {
    let t: TestServer;
    before(async () => {
      // Names under .test resolve to 127.0.0.1: public-looking names the guard must refuse at connection.
      t = await startTestServer(dialect, { crawlAllowPrivate: false, resolve: loopbackResolver().resolve });
    });

    for (const [kind, origin] of [
      ['https', { kind: 'https', baseUrl: 'https://origin.test/images/' }],
      [
        'S3',
        {
          kind: 's3',
          endpoint: 'https://s3.origin.test',
          region: 'auto',
          bucket: 'photos',
          accessKeyId: 'AKID',
          secretAccessKey: 'secret',
        },
      ],
    ] as const) {
      it(`refuses at connection an ${kind} origin whose name resolves to a private address`, async () => {
        const project = await t.request('POST', '/api/images/projects', { body: { name: `Rebound ${kind}` } });
        const set = await t.request('PUT', `/api/images/projects/${project.body.id}/origin`, { body: { origin } });
        assert.equal(set.status, 200, JSON.stringify(set.body));
        const answer = await cdnGet(t, `/cdn/${project.body.slug}/photo.jpg`);
        assert.equal(answer.status, 502, answer.body.toString());
        const body = JSON.parse(answer.body.toString());
        assert.equal(body.code, 'origin_failed');
        assert.match(body.error, /not public/);
        await t.request('DELETE', `/api/images/projects/${project.body.id}`);
      });
    }
    after(() => t.close());

    for (const baseUrl of ['https://127.0.0.1/', 'https://[::1]/', 'https://169.254.169.254/', 'https://10.0.0.1/', 'http://127.0.0.1/']) {
      it(`refuses ${baseUrl}`, async () => {
        const project = await t.request('POST', '/api/images/projects', { body: { name: 'Private' } });
        const answer = await t.request('PUT', `/api/images/projects/${project.body.id}/origin`, {
          body: { origin: { kind: 'https', baseUrl } },
        });
        assert.equal(answer.status, 400);
        assert.ok(answer.body.details.fieldErrors['origin.baseUrl']);
        await t.request('DELETE', `/api/images/projects/${project.body.id}`);
      });
    }
  });
}
