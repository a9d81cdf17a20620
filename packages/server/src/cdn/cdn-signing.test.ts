import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cdnUrl } from '../../../sdk/src/index.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { type HttpAnswer, startTestServer, type TestServer } from '../testing/test-server.ts';
import { stripMetadata } from '../transform/strip-metadata.ts';
import { decode } from '../transform/test-pixels.ts';

const MAX_EXPIRES_IN = 365 * 24 * 3600;
/** A path with a space and a folder, so that signing covers the encoded path. */
const PATH = 'albums/my cat.png';

function assertValidationError(answer: HttpAnswer, field?: string): void {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  assert.equal(answer.body.code, 'validation_failed');
  if (field === undefined) assert.ok(answer.body.details.formErrors.length > 0, JSON.stringify(answer.body));
  else assert.ok(answer.body.details.fieldErrors[field]?.length > 0, JSON.stringify(answer.body));
}

interface Served {
  status: number;
  headers: Headers;
  body: Buffer;
}

async function get(url: string): Promise<Served> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** A 403 from the CDN with the catalogue's code, never cached. */
function assertRefused(answer: Served, code: string): void {
  assert.equal(answer.status, 403, answer.body.toString('utf8').slice(0, 200));
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.equal(JSON.parse(answer.body.toString('utf8')).code, code);
}

/** The same URL on the test server: `LOUPE_PUBLIC_URL` is localhost:8080 in tests. */
function onServer(t: TestServer, url: string): string {
  const parsed = new URL(url);
  return `${t.url}${parsed.pathname}${parsed.search}`;
}

/** A copy of a URL with one query parameter set (or removed with undefined), keeping the others' order. */
function withParam(url: string, name: string, value: string | undefined): string {
  const parsed = new URL(url);
  if (value === undefined) parsed.searchParams.delete(name);
  else parsed.searchParams.set(name, value);
  return parsed.toString();
}

async function uploadTo(t: TestServer, projectId: string, name: string, path: string): Promise<void> {
  const response = await fetch(`${t.url}/api/images/projects/${projectId}/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.owner.key}` },
    body: uploadForm({ name, data: await readTestImage(name) }, { path }),
  });
  assert.equal(response.status, 201, await response.text());
}

for (const dialect of testDialects()) {
  describe(`CDN signing (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    let slug: string;
    /** The secret from the answer that generated it. */
    let secret: string;
    const signing = () => `/api/images/projects/${projectId}/signing`;
    const signed = (options: { secret?: string; transforms?: object; preset?: string; expiresIn?: number; path?: string } = {}) =>
      cdnUrl({
        baseUrl: t.url,
        project: slug,
        path: options.path ?? PATH,
        preset: options.preset,
        transforms: options.transforms ?? { width: 40 },
        sign: { secret: options.secret ?? secret, expiresIn: options.expiresIn ?? 600 },
      });

    before(async () => {
      t = await startTestServer(dialect);
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Signed' } });
      projectId = project.body.id;
      slug = project.body.slug;
      await uploadTo(t, projectId, 'chelsea.png', PATH);
      await uploadTo(t, projectId, 'coffee.png', 'albums/other.png');
      const preset = await t.request('POST', `/api/images/projects/${projectId}/presets`, {
        body: { name: 'square', transforms: { width: 30, height: 30, fit: 'cover' } },
      });
      assert.equal(preset.status, 201, JSON.stringify(preset.body));
    });
    after(() => t.close());

    it('starts with signing off and no secret', async () => {
      const answer = await t.request('GET', signing());
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, { enabled: false, requireSignedUrls: false, secretPreview: null, previousSecretExpiresAt: null });
    });

    it('refuses to sign a URL while signing is disabled: 409 signing_disabled', async () => {
      const answer = await t.request('PUT', signing(), { body: { path: PATH, params: { w: 40 } } });
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 'signing_disabled');
    });

    it('enabling signing generates a secret, shown only in that answer', async () => {
      const enabled = await t.request('POST', signing(), { body: { enabled: true } });
      assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
      secret = enabled.body.signingSecret;
      assert.match(secret, /^lsk_[A-Za-z0-9_-]{40,}$/);
      assert.equal(enabled.body.enabled, true);
      assert.equal(enabled.body.requireSignedUrls, false);
      assert.equal(enabled.body.secretPreview, secret.slice(0, enabled.body.secretPreview.length));
      assert.ok(enabled.body.secretPreview.length >= 4 && enabled.body.secretPreview.length < 16);

      const read = await t.request('GET', signing());
      assert.equal(read.body.signingSecret, undefined);
      assert.ok(!JSON.stringify(read.body).includes(secret));
      assert.equal(read.body.secretPreview, enabled.body.secretPreview);
      const again = await t.request('POST', signing(), { body: { enabled: true } });
      assert.equal(again.body.signingSecret, undefined, 'enabling again keeps the secret');
      assert.equal(again.body.secretPreview, enabled.body.secretPreview);
    });

    it('serves unsigned URLs while signatures are not required', async () => {
      assert.equal((await get(`${t.url}/cdn/${slug}/albums/my%20cat.png?w=40`)).status, 200);
    });

    it('requireSignedUrls makes unsigned requests 403 signature_required', async () => {
      const required = await t.request('POST', signing(), { body: { requireSignedUrls: true } });
      assert.equal(required.status, 200, JSON.stringify(required.body));
      assert.deepEqual([required.body.enabled, required.body.requireSignedUrls, required.body.signingSecret], [true, true, undefined]);
      assert.equal((await t.request('GET', `/api/images/projects/${projectId}`)).body.requireSignedUrls, true);
      assertRefused(await get(`${t.url}/cdn/${slug}/albums/my%20cat.png?w=40`), 'signature_required');
      assertRefused(await get(`${t.url}/cdn/${slug}/albums/my%20cat.png`), 'signature_required');
    });

    it('accepts the SDK’s signed URLs, with a preset, transforms and an expiry', async () => {
      const url = await signed({ preset: 'square', transforms: { width: 20, format: 'png' } });
      assert.match(url, /\?exp=\d+&f=png&t=square&w=20&s=[0-9a-f]{64}$/);
      const answer = await get(url);
      assert.equal(answer.status, 200, answer.body.toString('utf8').slice(0, 200));
      assert.equal(answer.headers.get('content-type'), 'image/png');
      const image = await decode(answer.body);
      assert.deepEqual([image.width, image.height], [20, 30]);
    });

    it('accepts a signed URL without an expiry', async () => {
      const url = await cdnUrl({ baseUrl: t.url, project: slug, path: PATH, sign: { secret } });
      assert.ok(!url.includes('exp='));
      const answer = await get(url);
      assert.equal(answer.status, 200);
      // The original, less its text chunks (metadata is stripped by default).
      assert.deepEqual(answer.body, stripMetadata(await readTestImage('chelsea.png'), 'png'));
    });

    it('refuses a URL signed with a wrong secret: 403 signature_invalid', async () => {
      assertRefused(await get(await signed({ secret: `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}` })), 'signature_invalid');
    });

    for (const [what, tamper] of [
      ['the path changed', (url: string) => url.replace('/my%20cat.png', '/other.png')],
      ['a parameter changed', (url: string) => withParam(url, 'w', '41')],
      ['a parameter added', (url: string) => `${url}&grayscale=true`],
      ['the expiry dropped', (url: string) => withParam(url, 'exp', undefined)],
      ['the expiry extended', (url: string) => withParam(url, 'exp', String(Number(new URL(url).searchParams.get('exp')) + 3600))],
      ['the signature changed', (url: string) => withParam(url, 's', flipLast(new URL(url).searchParams.get('s') ?? ''))],
      ['a malformed signature', (url: string) => withParam(url, 's', 'not-hex')],
      ['another project’s slug', (url: string) => url.replace(`/cdn/${slug}/`, '/cdn/another-project/')],
    ] as const) {
      it(`refuses a signed URL with ${what}`, async () => {
        const url = await signed();
        assert.equal((await get(url)).status, 200, 'the untouched URL is served');
        const answer = await get(tamper(url));
        if (what === 'another project’s slug') assert.equal(answer.status, 404);
        else assertRefused(answer, 'signature_invalid');
      });
    }

    it('refuses an expired URL: 403 signature_expired', async () => {
      const url = await cdnUrl({
        baseUrl: t.url,
        project: slug,
        path: PATH,
        transforms: { width: 40 },
        sign: { secret, expiresIn: 60 },
        now: () => Date.now() - 3_600_000,
      });
      assertRefused(await get(url), 'signature_expired');
      const expiredNow = await cdnUrl({
        baseUrl: t.url,
        project: slug,
        path: PATH,
        sign: { secret, expiresAt: new Date(Date.now() - 1000) },
      });
      assertRefused(await get(expiredNow), 'signature_expired');
    });

    it('PUT …/signing returns an absolute signed URL that the CDN serves', async () => {
      const before = Math.floor(Date.now() / 1000);
      const answer = await t.request('PUT', signing(), {
        body: { path: PATH, params: { t: 'square', w: 25, grayscale: true }, expiresIn: 600 },
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const { url, signature, expiresAt } = answer.body;
      assert.ok(url.startsWith(`http://localhost:8080/cdn/${slug}/albums/my%20cat.png?`), url);
      const query = new URL(url).searchParams;
      assert.equal(query.get('s'), signature);
      assert.match(signature, /^[0-9a-f]{64}$/);
      assert.equal(new Date(expiresAt).getTime() / 1000, Number(query.get('exp')));
      assert.ok(Number(query.get('exp')) >= before + 600 && Number(query.get('exp')) <= before + 602);

      const served = await get(onServer(t, url));
      assert.equal(served.status, 200, served.body.toString('utf8').slice(0, 200));
      const image = await decode(served.body);
      assert.deepEqual([image.width, image.height], [25, 30]);
      const [r, g, b] = image.data;
      assert.ok(r === g && g === b, 'grayscale applied');
      assertRefused(await get(onServer(t, withParam(url, 'w', '26'))), 'signature_invalid');
    });

    it('PUT …/signing without expiresIn signs a URL that does not expire', async () => {
      const answer = await t.request('PUT', signing(), { body: { path: PATH } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.expiresAt, null);
      assert.ok(!answer.body.url.includes('exp='));
      assert.equal((await get(onServer(t, answer.body.url))).status, 200);
    });

    it('the server’s and the SDK’s signatures agree', async () => {
      const server = await t.request('PUT', signing(), { body: { path: PATH, params: { w: 40, f: 'webp' } } });
      const sdk = await cdnUrl({
        baseUrl: 'http://localhost:8080',
        project: slug,
        path: PATH,
        transforms: { width: 40, format: 'webp' },
        sign: { secret },
      });
      assert.equal(sdk, server.body.url);
    });

    for (const [what, body, field] of [
      ['expiresIn 0', { path: PATH, expiresIn: 0 }, 'expiresIn'],
      ['expiresIn beyond a year', { path: PATH, expiresIn: MAX_EXPIRES_IN + 1 }, 'expiresIn'],
      ['a fractional expiresIn', { path: PATH, expiresIn: 1.5 }, 'expiresIn'],
      ['params with s', { path: PATH, params: { s: 'abc' } }, 'params'],
      ['params with exp', { path: PATH, params: { exp: 1 } }, 'params'],
      ['a parent path', { path: '../x.png' }, 'path'],
      ['an absolute path', { path: '/x.png' }, 'path'],
      ['no path', { params: { w: 40 } }, 'path'],
      ['an unknown field', { path: PATH, colour: 'red' }, 'colour'],
    ] as const) {
      it(`PUT …/signing refuses ${what} with 400`, async () => {
        assertValidationError(await t.request('PUT', signing(), { body }), field);
      });
    }

    it('PUT …/signing accepts expiresIn of exactly a year', async () => {
      const answer = await t.request('PUT', signing(), { body: { path: PATH, expiresIn: MAX_EXPIRES_IN } });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    });

    for (const [what, body, field] of [
      ['an empty change', {}, undefined],
      ['rotate: false', { rotate: false }, 'rotate'],
      ['requiring signatures while disabling signing', { enabled: false, requireSignedUrls: true }, 'requireSignedUrls'],
      ['an unknown field', { secret: 'mine' }, 'secret'],
    ] as const) {
      it(`POST …/signing refuses ${what} with 400`, async () => {
        assertValidationError(await t.request('POST', signing(), { body }), field);
      });
    }

    it('viewer keys read the settings but cannot change them', async () => {
      const viewer = await t.createMemberKey(t.owner.workspaceId, 'viewer');
      const read = await t.request('GET', signing(), { key: viewer });
      assert.equal(read.status, 200);
      assert.equal(read.body.enabled, true);
      assert.equal(read.body.signingSecret, undefined);
      for (const body of [{ rotate: true }, { enabled: false }, { requireSignedUrls: false }]) {
        const answer = await t.request('POST', signing(), { key: viewer, body });
        assert.equal(answer.status, 403, JSON.stringify(answer.body));
      }
      assert.equal((await t.request('GET', signing())).body.secretPreview, read.body.secretPreview, 'nothing rotated');
    });

    it('answers 404 for another workspace’s project', async () => {
      const other = await t.createWorkspace();
      for (const [method, body] of [
        ['GET', undefined],
        ['POST', { rotate: true }],
        ['PUT', { path: PATH }],
      ] as const) {
        const answer = await t.request(method, signing(), { key: other.key, body });
        assert.equal(answer.status, 404, `${method}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.code, 'not_found');
      }
      const read = await t.request('GET', `/api/images/projects/${projectId}/usage?days=1`, { key: other.key });
      assert.equal(read.status, 404);
    });

    it('after a rotation both the old and the new secret verify, for the grace period', async () => {
      const old = secret;
      const before = Date.now();
      const rotated = await t.request('POST', signing(), { body: { rotate: true } });
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      const fresh = rotated.body.signingSecret;
      assert.match(fresh, /^lsk_/);
      assert.notEqual(fresh, old);
      assert.equal(rotated.body.secretPreview, fresh.slice(0, rotated.body.secretPreview.length));
      const graceEnds = Date.parse(rotated.body.previousSecretExpiresAt);
      assert.ok(graceEnds >= before + 86_400_000 - 1000 && graceEnds <= Date.now() + 86_400_000 + 1000);
      assert.equal((await t.request('GET', signing())).body.previousSecretExpiresAt, rotated.body.previousSecretExpiresAt);
      secret = fresh;

      assert.equal((await get(await signed({ secret: old }))).status, 200, 'old secret in its grace period');
      assert.equal((await get(await signed({ secret: fresh }))).status, 200, 'new secret');
      const issued = await t.request('PUT', signing(), { body: { path: PATH, params: { w: 40 } } });
      assert.equal(
        new URL(issued.body.url).searchParams.get('s'),
        new URL(
          await cdnUrl({ baseUrl: t.url, project: slug, path: PATH, transforms: { width: 40 }, sign: { secret: fresh } }),
        ).searchParams.get('s'),
        'new URLs use the new secret',
      );
    });

    it('disabling signing drops the requirement and stops signing', async () => {
      const disabled = await t.request('POST', signing(), { body: { enabled: false } });
      assert.deepEqual([disabled.body.enabled, disabled.body.requireSignedUrls], [false, false]);
      assert.equal((await get(`${t.url}/cdn/${slug}/albums/my%20cat.png?w=40`)).status, 200);
      assert.equal((await t.request('PUT', signing(), { body: { path: PATH } })).body.code, 'signing_disabled');
    });
  });

  describe(`CDN signing without a grace period (${dialect})`, () => {
    let t: TestServer;
    let projectId: string;
    let slug: string;
    before(async () => {
      t = await startTestServer(dialect, { signingGraceSeconds: 0 });
      const project = await t.request('POST', '/api/images/projects', { body: { name: 'Strict' } });
      projectId = project.body.id;
      slug = project.body.slug;
      await uploadTo(t, projectId, 'chelsea.png', 'cat.png');
    });
    after(() => t.close());

    it('stops verifying the old secret at once after a rotation', async () => {
      const signing = `/api/images/projects/${projectId}/signing`;
      const old = (await t.request('POST', signing, { body: { requireSignedUrls: true } })).body.signingSecret;
      const url = (secret: string) =>
        cdnUrl({ baseUrl: t.url, project: slug, path: 'cat.png', transforms: { width: 40 }, sign: { secret } });
      assert.equal((await get(await url(old))).status, 200);

      const rotated = await t.request('POST', signing, { body: { rotate: true } });
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.equal(rotated.body.previousSecretExpiresAt, null);
      assertRefused(await get(await url(old)), 'signature_invalid');
      assert.equal((await get(await url(rotated.body.signingSecret))).status, 200);
    });
  });
}

function flipLast(hex: string): string {
  return `${hex.slice(0, -1)}${hex.endsWith('0') ? '1' : '0'}`;
}
