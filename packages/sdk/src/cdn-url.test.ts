import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verifyCdnSignature } from '@loupe/contract';
import { cdnUrl, LoupeError } from './index.ts';

const baseUrl = 'https://img.example.com';
const secret = 'sk_signing_0123456789';
const now = () => 1_790_000_000_500;

/** The pieces the CDN layer will see: slug, encoded path as it appears, decoded query. */
function parts(url: string) {
  const parsed = new URL(url);
  const [, cdn, slug, ...path] = parsed.pathname.split('/');
  assert.equal(cdn, 'cdn');
  return { slug: slug!, encodedPath: path.join('/'), params: Object.fromEntries(parsed.searchParams) };
}

function rejectsWith(promise: Promise<unknown>, field: string) {
  return assert.rejects(
    promise,
    (error: unknown) =>
      error instanceof LoupeError &&
      error.code === 'validation_failed' &&
      error.status === 400 &&
      field in (error.details?.fieldErrors ?? {}),
  );
}

describe('cdnUrl', () => {
  it('is origin/cdn/slug/path without a query when nothing is asked', async () => {
    assert.equal(await cdnUrl({ baseUrl, project: 'blog', path: 'covers/a.jpg' }), `${baseUrl}/cdn/blog/covers/a.jpg`);
  });

  it('asks for the facts as JSON with meta, covered by the signature', async () => {
    const url = await cdnUrl({ baseUrl, project: 'blog', path: 'a.jpg', transforms: { width: 300 }, meta: true, sign: { secret } });
    const { slug, encodedPath, params } = parts(url);
    assert.equal(params.meta, 'json');
    assert.equal(await verifyCdnSignature([secret], slug, encodedPath, params, 0), 'valid');
    assert.equal(await cdnUrl({ baseUrl, project: 'blog', path: 'a.jpg', meta: false }), `${baseUrl}/cdn/blog/a.jpg`);
  });

  it('drops trailing slashes of the base URL', async () => {
    const url = await cdnUrl({ baseUrl: `${baseUrl}//`, project: 'blog', path: 'a.jpg' });
    assert.equal(url, `${baseUrl}/cdn/blog/a.jpg`);
  });

  it("encodes the path per segment, including spaces, unicode and !'()*", async () => {
    const url = await cdnUrl({ baseUrl, project: 'blog', path: "été 2026/it's (1)*!.jpg" });
    assert.equal(url, `${baseUrl}/cdn/blog/%C3%A9t%C3%A9%202026/it%27s%20%281%29%2A%21.jpg`);
  });

  it('sends the preset as t and transforms by their short names, sorted', async () => {
    const url = await cdnUrl({
      baseUrl,
      project: 'blog',
      path: 'a.jpg',
      preset: 'thumb',
      transforms: { width: 300, height: 200, gravity: 'top-left', format: 'webp', quality: 80 },
    });
    assert.equal(url, `${baseUrl}/cdn/blog/a.jpg?f=webp&g=top-left&h=200&q=80&t=thumb&w=300`);
  });

  it('sends the other transforms by their long names, numbers as JS prints them, booleans as true/false', async () => {
    const url = await cdnUrl({
      baseUrl,
      project: 'blog',
      path: 'a.jpg',
      transforms: {
        dpr: 2,
        fit: 'pad',
        bg: 'ff00AA',
        blur: 5,
        sharpen: 0.5,
        radius: 'max',
        rotate: 90,
        flip: 'h',
        qualityMode: 'high',
        grayscale: true,
        sepia: false,
        brightness: -10,
        contrast: 12.5,
        saturation: 0,
      },
    });
    assert.deepEqual(parts(url).params, {
      dpr: '2',
      fit: 'pad',
      bg: 'ff00AA',
      blur: '5',
      sharpen: '0.5',
      radius: 'max',
      rotate: '90',
      flip: 'h',
      qualityMode: 'high',
      grayscale: 'true',
      sepia: 'false',
      brightness: '-10',
      contrast: '12.5',
      saturation: '0',
    });
  });

  it('skips transforms set to undefined', async () => {
    const url = await cdnUrl({ baseUrl, project: 'blog', path: 'a.jpg', transforms: { width: 10, height: undefined } });
    assert.equal(url, `${baseUrl}/cdn/blog/a.jpg?w=10`);
  });

  it('signs with s last, and the signature verifies on the CDN side', async () => {
    const url = await cdnUrl({
      baseUrl,
      project: 'blog',
      path: "été/l'île (1).jpg",
      preset: 'thumb',
      transforms: { width: 300 },
      sign: { secret },
    });
    const expected = `${baseUrl}/cdn/blog/%C3%A9t%C3%A9/l%27%C3%AEle%20%281%29.jpg?t=thumb&w=300&s=`;
    assert.equal(url.slice(0, -64), expected);
    assert.match(url.slice(-64), /^[0-9a-f]{64}$/);
    const { slug, encodedPath, params } = parts(url);
    assert.equal(await verifyCdnSignature([secret], slug, encodedPath, params, 0), 'valid');
    assert.equal(await verifyCdnSignature(['another'], slug, encodedPath, params, 0), 'invalid');
  });

  it('signs a URL without any other parameter', async () => {
    const url = await cdnUrl({ baseUrl, project: 'blog', path: 'a.jpg', sign: { secret } });
    assert.match(url, /\/cdn\/blog\/a\.jpg\?s=[0-9a-f]{64}$/);
    const { slug, encodedPath, params } = parts(url);
    assert.equal(await verifyCdnSignature([secret], slug, encodedPath, params, 0), 'valid');
  });

  it('adds exp from expiresIn, rounded down to the second, and it expires then', async () => {
    const url = await cdnUrl({ baseUrl, project: 'blog', path: 'a.jpg', sign: { secret, expiresIn: 60 }, now });
    const { slug, encodedPath, params } = parts(url);
    assert.equal(params.exp, '1790000060');
    assert.equal(await verifyCdnSignature([secret], slug, encodedPath, params, 1_790_000_059), 'valid');
    assert.equal(await verifyCdnSignature([secret], slug, encodedPath, params, 1_790_000_060), 'expired');
  });

  it('adds exp from expiresAt', async () => {
    const expiresAt = new Date('2026-09-21T12:00:00.900Z');
    const url = await cdnUrl({ baseUrl, project: 'blog', path: 'a.jpg', sign: { secret, expiresAt } });
    assert.equal(parts(url).params.exp, String(Math.floor(expiresAt.getTime() / 1000)));
  });

  it('throws validation_failed for an out-of-range or wrongly typed transform', async () => {
    const options = { baseUrl, project: 'blog', path: 'a.jpg' };
    await rejectsWith(cdnUrl({ ...options, transforms: { width: 0 } }), 'transforms.width');
    await rejectsWith(cdnUrl({ ...options, transforms: { width: 10.5 } }), 'transforms.width');
    await rejectsWith(cdnUrl({ ...options, transforms: { quality: 101 } }), 'transforms.quality');
    await rejectsWith(cdnUrl({ ...options, transforms: { bg: '#ffffff' } }), 'transforms.bg');
    await rejectsWith(cdnUrl({ ...options, transforms: { fit: 'stretch' as 'fill' } }), 'transforms.fit');
    await rejectsWith(cdnUrl({ ...options, transforms: { rotate: 45 as 90 } }), 'transforms.rotate');
  });

  it('throws validation_failed for an unknown transform', async () => {
    const transforms = { width: 10, zoom: 2 } as Partial<Record<string, number>>;
    await rejectsWith(cdnUrl({ baseUrl, project: 'blog', path: 'a.jpg', transforms }), 'transforms.zoom');
  });

  it('throws validation_failed for a bad path, preset or expiry', async () => {
    const options = { baseUrl, project: 'blog', path: 'a.jpg' };
    await rejectsWith(cdnUrl({ ...options, path: '/a.jpg' }), 'path');
    await rejectsWith(cdnUrl({ ...options, path: 'a/../b.jpg' }), 'path');
    await rejectsWith(cdnUrl({ ...options, preset: 'not a preset' }), 'preset');
    await rejectsWith(cdnUrl({ ...options, sign: { secret, expiresIn: 0 } }), 'sign.expiresIn');
    await rejectsWith(cdnUrl({ ...options, sign: { secret, expiresIn: 1.5 } }), 'sign.expiresIn');
    await rejectsWith(cdnUrl({ ...options, sign: { secret, expiresAt: new Date('nope') } }), 'sign.expiresAt');
    await rejectsWith(cdnUrl({ ...options, sign: { secret, expiresIn: 60, expiresAt: new Date() } }), 'sign');
    await rejectsWith(cdnUrl({ ...options, sign: { secret: '' } }), 'sign.secret');
  });

  it('runs the documented example', async () => {
    process.env.LOUPE_SIGNING_SECRET ??= secret;
    // Kept identical to the @example of cdnUrl, so the example is type-checked.
    const url = await cdnUrl({
      baseUrl: 'https://img.example.com',
      project: 'blog',
      path: 'covers/spring.jpg',
      preset: 'thumb',
      transforms: { width: 300, format: 'webp' },
      sign: { secret: process.env.LOUPE_SIGNING_SECRET!, expiresIn: 3600 },
    });
    assert.match(url, /^https:\/\/img\.example\.com\/cdn\/blog\/covers\/spring\.jpg\?exp=\d+&f=webp&t=thumb&w=300&s=[0-9a-f]{64}$/);
  });
});
