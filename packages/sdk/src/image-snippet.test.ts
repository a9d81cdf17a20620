import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { imgSnippet, pictureSnippet } from './index.ts';

const base = { baseUrl: 'https://img.example.com', project: 'blog', path: 'a.jpg', preset: 'card', widths: [320, 640] };
const url = (query: string) => `https://img.example.com/cdn/blog/a.jpg?${query}`;

describe('imgSnippet', () => {
  it('writes an <img> with src, srcset, sizes, alt, lazy loading and async decoding, & escaped', async () => {
    const html = await imgSnippet({ ...base, sizes: '50vw', alt: 'A cat' });
    assert.equal(
      html,
      `<img src="${url('dpr=1&amp;t=card&amp;w=640')}" srcset="${url('dpr=1&amp;t=card&amp;w=320')} 320w, ${url('dpr=1&amp;t=card&amp;w=640')} 640w" sizes="50vw" alt="A cat" loading="lazy" decoding="async">`,
    );
  });

  it('escapes quotes, angle brackets and ampersands in every attribute', async () => {
    const html = await imgSnippet({
      ...base,
      alt: `"><script>alert('x')</script>&`,
      className: 'a"b',
      sizes: '(max-width: 10px) 5vw, <b>',
    });
    assert.match(html, /alt="&quot;&gt;&lt;script&gt;alert\(&#39;x&#39;\)&lt;\/script&gt;&amp;"/);
    assert.match(html, /class="a&quot;b"/);
    assert.match(html, /sizes="\(max-width: 10px\) 5vw, &lt;b&gt;"/);
    assert.doesNotMatch(html, /<script|"><|'x'/);
  });

  it('adds width, height, eager loading and a class when asked', async () => {
    const html = await imgSnippet({ ...base, alt: '', width: 320, height: 240, loading: 'eager', className: 'hero' });
    assert.match(html, / alt="" width="320" height="240" loading="eager" decoding="async" class="hero">$/);
  });
});

describe('pictureSnippet', () => {
  it('offers AVIF then WebP sources over the same widths, with the <img> as the fallback', async () => {
    const html = await pictureSnippet({ ...base, alt: 'A cat', formats: ['avif', 'webp'] });
    const source = (format: string) =>
      `<source type="image/${format}" srcset="${url(`dpr=1&amp;f=${format}&amp;t=card&amp;w=320`)} 320w, ${url(`dpr=1&amp;f=${format}&amp;t=card&amp;w=640`)} 640w" sizes="100vw">`;
    assert.equal(html, `<picture>${source('avif')}${source('webp')}${await imgSnippet({ ...base, alt: 'A cat' })}</picture>`);
  });
});
