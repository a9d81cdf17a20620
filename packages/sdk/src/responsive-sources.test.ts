import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifyCdnSignature } from '@loupe/contract';
import { readTestImage, uploadForm } from '@loupe/server/src/testing/test-images.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { decode } from '@loupe/server/src/transform/test-pixels.ts';
import { LoupeError, responsiveSources } from './index.ts';

const base = { baseUrl: 'https://img.example.com', project: 'blog', path: 'covers/spring day.jpg' };

function candidates(srcset: string): Array<{ url: string; width: number }> {
  return srcset.split(', ').map((candidate) => {
    const [url, descriptor] = candidate.split(' ');
    return { url: url as string, width: Number(descriptor?.replace(/w$/, '')) };
  });
}

describe('responsiveSources', () => {
  it('lists one candidate per width, ascending and once each, with w and dpr=1 set by each URL', async () => {
    const sources = await responsiveSources({ ...base, preset: 'card', widths: [640, 320, 640, 960] });
    assert.equal(
      sources.srcset,
      [320, 640, 960].map((w) => `https://img.example.com/cdn/blog/covers/spring%20day.jpg?dpr=1&t=card&w=${w} ${w}w`).join(', '),
    );
    assert.equal(sources.src, 'https://img.example.com/cdn/blog/covers/spring%20day.jpg?dpr=1&t=card&w=960');
    assert.equal(sources.sizes, '100vw');
  });

  it('keeps a box with aspectRatio, other transforms, and the sizes given', async () => {
    const sources = await responsiveSources({
      ...base,
      widths: [300, 601],
      aspectRatio: 1.5,
      transforms: { fit: 'cover', format: 'webp' },
      sizes: '(min-width: 800px) 50vw, 100vw',
    });
    assert.deepEqual(
      candidates(sources.srcset).map(({ url }) => new URL(url).search),
      ['?dpr=1&f=webp&fit=cover&h=200&w=300', '?dpr=1&f=webp&fit=cover&h=401&w=601'],
    );
    assert.equal(sources.sizes, '(min-width: 800px) 50vw, 100vw');
  });

  it('signs every candidate when given the secret', async () => {
    const secret = 'sk_signing_0123456789';
    const sources = await responsiveSources({ ...base, preset: 'card', widths: [100, 200], sign: { secret } });
    for (const { url } of candidates(sources.srcset)) {
      const parsed = new URL(url);
      const encodedPath = parsed.pathname.split('/').slice(3).join('/');
      const verdict = await verifyCdnSignature([secret], 'blog', encodedPath, Object.fromEntries(parsed.searchParams), 0);
      assert.equal(verdict, 'valid', url);
    }
  });

  it('refuses no widths, widths out of 1…8192, a bad aspect ratio and empty sizes', async () => {
    for (const [options, field] of [
      [{ widths: [] }, 'widths'],
      [{ widths: [0] }, 'widths'],
      [{ widths: [8193] }, 'widths'],
      [{ widths: [1.5] }, 'widths'],
      [{ widths: [100], aspectRatio: 0 }, 'aspectRatio'],
      [{ widths: [100], aspectRatio: Number.NaN }, 'aspectRatio'],
      [{ widths: [100], sizes: ' ' }, 'sizes'],
    ] as const) {
      await assert.rejects(
        responsiveSources({ ...base, ...options, widths: [...options.widths] }),
        (error: unknown) =>
          error instanceof LoupeError && error.code === 'validation_failed' && field in (error.details?.fieldErrors ?? {}),
        field,
      );
    }
    assert.equal(candidates((await responsiveSources({ ...base, widths: [1, 8192] })).srcset).length, 2);
  });
});

describe('responsiveSources against the server', () => {
  let t: TestServer;
  let slug: string;
  let secret: string;
  before(async () => {
    t = await startTestServer('sqlite');
    const project = await t.request('POST', '/api/images/projects', { body: { name: 'Responsive' } });
    slug = project.body.slug;
    const id: string = project.body.id;
    // Hints on, a preset with its own dpr, signatures required: none of them may change a candidate's width.
    await t.request('PATCH', `/api/images/projects/${id}`, { body: { clientHints: true } });
    await t.request('POST', `/api/images/projects/${id}/presets`, {
      body: { name: 'card', transforms: { width: 300, dpr: 2, fit: 'cover' } },
    });
    secret = (await t.request('POST', `/api/images/projects/${id}/signing`, { body: { requireSignedUrls: true } })).body.signingSecret;
    const upload = await fetch(`${t.url}/api/images/projects/${id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.owner.key}` },
      body: uploadForm({ name: 'hubble.jpg', data: await readTestImage('hubble_deep_field.jpg') }, { path: 'photos/deep field.jpg' }),
    });
    assert.equal(upload.status, 201);
  });
  after(() => t.close());

  it('answers every URL of a generated srcset with an image exactly its descriptor wide', async () => {
    const sources = await responsiveSources({
      baseUrl: t.url,
      project: slug,
      path: 'photos/deep field.jpg',
      preset: 'card',
      widths: [160, 320, 480, 800],
      aspectRatio: 4 / 3,
      sign: { secret, expiresIn: 3600 },
    });
    for (const { url, width } of candidates(sources.srcset)) {
      const response = await fetch(url, { headers: { 'sec-ch-dpr': '3', 'sec-ch-width': '2000' } });
      assert.equal(response.status, 200, url);
      const decoded = await decode(Buffer.from(await response.arrayBuffer()));
      assert.deepEqual([decoded.width, decoded.height], [width, Math.round((width * 3) / 4)], url);
    }
    assert.equal((await fetch(sources.src)).status, 200);
  });
});
