import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { extractPageFacts, PAGE_FACT_CAPS, type PageFacts } from './page-facts.ts';

const PAGE = 'https://example.com/docs/page.html';

function facts(html: string, headers: Record<string, string | undefined> = {}, url = PAGE): PageFacts {
  return extractPageFacts(html, url, headers);
}

/** Hamming distance of two 16-hex-digit SimHashes. */
function bitsApart(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let bits = 0;
  for (; x > 0n; x >>= 1n) bits += Number(x & 1n);
  return bits;
}

describe('titles', () => {
  it('decodes entities and measures the collapsed text in code points', () => {
    const page = facts('<title>\n  Fish &amp; Chips&nbsp;&ndash;   Caf&eacute; &#x1F41F;  </title>');
    assert.deepEqual(page.title, { text: 'Fish & Chips – Café 🐟', length: 21, inHead: true });
  });
  it('counts a 25-character Japanese title as 25, not as its 75 UTF-8 bytes', () => {
    const title = '東京の天気予報と週間天気・日本気象協会のサイト';
    assert.equal([...title].length, 23);
    const page = facts(`<title>${title}です</title>`);
    assert.equal(page.title?.length, 25);
    assert.equal(page.title?.text, `${title}です`);
  });
  it('counts every title in the head, and keeps the first as the title', () => {
    const page = facts('<head><title>One</title><title>Two</title></head><body><p>x</p><title>Three</title></body>');
    assert.equal(page.titleCount, 3);
    assert.deepEqual(
      page.titles.map((t) => [t.text, t.inHead]),
      [
        ['One', true],
        ['Two', true],
        ['Three', false],
      ],
    );
    assert.equal(page.title?.text, 'One');
  });
  it('does not take an SVG <title> for the page title', () => {
    const page = facts('<html><head></head><body><svg viewBox="0 0 1 1"><title>Search icon</title></svg><p>Hello</p></body></html>');
    assert.equal(page.title, null);
    assert.equal(page.titleCount, 0);
    assert.equal(page.text.wordCount, 1);
  });
  it('reads upper-case tags', () => {
    const page = facts('<HTML LANG="EN"><HEAD><TITLE>Shouting</TITLE></HEAD><BODY><H1>Big</H1></BODY></HTML>');
    assert.equal(page.title?.text, 'Shouting');
    assert.equal(page.htmlLang, 'EN');
    assert.deepEqual(page.h1Texts, ['Big']);
  });
  it('reports an empty title with length 0 and caps a very long one', () => {
    assert.deepEqual(facts('<title>   </title>').title, { text: '', length: 0, inHead: true });
    const long = facts(`<title>${'ab '.repeat(600)}</title>`).title;
    assert.equal(long?.length, 1_799);
    assert.equal([...(long?.text ?? '')].length, PAGE_FACT_CAPS.titleText);
  });
  it('ignores titles inside comments, CDATA, templates and noscript', () => {
    const page = facts(
      '<!-- <title>Commented</title> --><![CDATA[<title>Cdata</title>]]><template><title>T</title></template><noscript><title>N</title></noscript><title>Real</title>',
    );
    assert.equal(page.titleCount, 1);
    assert.equal(page.title?.text, 'Real');
  });
});

describe('meta descriptions', () => {
  it('measures the description and counts duplicates', () => {
    const page = facts('<meta name="Description" content=" A  page about &quot;things&quot; "><meta name="description" content="Second">');
    assert.deepEqual(page.description, { text: 'A page about "things"', length: 21, inHead: true });
    assert.equal(page.descriptionCount, 2);
  });
  it('treats a description without content as empty', () => {
    assert.equal(facts('<meta name="description">').description?.length, 0);
    assert.equal(facts('<title>x</title>').description, null);
  });
});

describe('robots directives', () => {
  it('reads noindex from meta robots and keeps the header side clean', () => {
    const page = facts('<meta name="ROBOTS" content="NoIndex, follow">');
    assert.equal(page.robots.meta.noindex, true);
    assert.equal(page.robots.header.noindex, false);
    assert.equal(page.robots.combined.noindex, true);
    assert.equal(page.robots.combined.nofollow, false);
  });
  it('reads noindex from X-Robots-Tag whatever the header name case', () => {
    const page = facts('<title>x</title>', { 'X-Robots-Tag': 'noindex' });
    assert.equal(page.robots.meta.noindex, false);
    assert.equal(page.robots.header.noindex, true);
    assert.equal(page.robots.combined.noindex, true);
  });
  it('applies header lines scoped to Googlebot and ignores those for other bots', () => {
    assert.equal(facts('', { 'x-robots-tag': 'googlebot: noindex' }).robots.header.noindex, true);
    const other = facts('', { 'x-robots-tag': 'otherbot: noindex, nofollow' }).robots.header;
    assert.equal(other.noindex, false);
    assert.equal(other.nofollow, false);
  });
  it('treats none as noindex and nofollow, and merges meta googlebot', () => {
    const page = facts('<meta name="googlebot" content="none">');
    assert.deepEqual([page.robots.meta.none, page.robots.meta.noindex, page.robots.meta.nofollow], [true, true, true]);
  });
  it('reads nosnippet, max-snippet and an RFC 850 unavailable_after date', () => {
    const meta = facts('<meta name="robots" content="max-snippet:50, max-snippet: 0, noarchive">').robots.meta;
    assert.equal(meta.maxSnippet, 0);
    assert.equal(meta.noarchive, true);
    const header = facts('', { 'x-robots-tag': 'unavailable_after: Friday, 25-Jun-10 15:00:00 GMT, nosnippet' }).robots.header;
    assert.equal(header.unavailableAfter, 'Friday, 25-Jun-10 15:00:00 GMT');
    assert.equal(header.nosnippet, true);
  });
});

describe('canonical links', () => {
  it('resolves relative canonicals and tells head from body and header', () => {
    const page = facts(
      '<head><link rel="canonical" href="/docs/page.html#top"></head><body><link rel="Canonical" href="https://example.com/other"></body>',
      { link: '<https://example.com/docs/page.html>; rel="canonical", <https://example.com/de/>; rel=alternate; hreflang=de' },
    );
    assert.equal(page.canonicalCount, 3);
    assert.deepEqual(
      page.canonicals.map((c) => [c.url, c.source, c.inHead, c.absolute]),
      [
        ['https://example.com/docs/page.html', 'html', true, false],
        ['https://example.com/other', 'html', false, true],
        ['https://example.com/docs/page.html', 'header', true, true],
      ],
    );
  });
  it('counts a canonical after an element that ends the head as outside the head', () => {
    const page = facts('<head><title>t</title><img src="a.png"><link rel="canonical" href="https://example.com/x"></head>');
    assert.equal(page.canonicals[0]?.inHead, false);
  });
  it('keeps a non-http canonical with a null url', () => {
    const canonical = facts('<link rel="canonical" href="ftp://example.com/x">').canonicals[0];
    assert.equal(canonical?.href, 'ftp://example.com/x');
    assert.equal(canonical?.url, null);
  });
});

describe('hreflang alternates', () => {
  it('lists lang and resolved href, flagging relative ones', () => {
    const page = facts(
      '<link rel="alternate" hreflang="en-GB" href="https://example.com/en/"><link rel="alternate" hreflang=" x-default " href="/"><link rel="alternate" type="application/rss+xml" href="/feed">',
    );
    assert.equal(page.hreflangCount, 2);
    assert.deepEqual(
      page.hreflangs.map((h) => [h.lang, h.url, h.absolute]),
      [
        ['en-GB', 'https://example.com/en/', true],
        ['x-default', 'https://example.com/', false],
      ],
    );
  });
});

describe('document language, charset and viewport', () => {
  it('reads html lang, meta charset position and the viewport', () => {
    const page = facts(
      '<!doctype html><html lang=" de-CH "><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width,  initial-scale=1"></head></html>',
      { 'content-type': 'text/html; charset=ISO-8859-1' },
    );
    assert.equal(page.htmlLang, 'de-CH');
    assert.deepEqual(page.charset, { header: 'iso-8859-1', meta: 'utf-8', metaInFirst1024Bytes: true });
    assert.deepEqual(page.viewport, { content: 'width=device-width, initial-scale=1', inHead: true });
  });
  it('reads the charset of http-equiv content-type and notices it after the first 1,024 bytes', () => {
    const page = facts(
      `<head><!-- ${'é'.repeat(600)} --><meta http-equiv="Content-Type" content="text/html; charset=windows-1252"></head>`,
    );
    assert.equal(page.charset.meta, 'windows-1252');
    assert.equal(page.charset.metaInFirst1024Bytes, false);
    assert.equal(page.charset.header, null);
  });
  it('reports a missing lang as null and an empty one as ""', () => {
    assert.equal(facts('<html><p>x</p></html>').htmlLang, null);
    assert.equal(facts('<html lang><p>x</p></html>').htmlLang, '');
  });
});

describe('headings', () => {
  it('lists levels in document order with text, counting h1s', () => {
    const page = facts('<h1>Main <em>title</em></h1><h2>A</h2><h4>Deep</h4><h1><img src="logo.png" alt="Brand"></h1><h3>  </h3>');
    assert.deepEqual(
      page.headings.map((h) => [h.level, h.text]),
      [
        [1, 'Main title'],
        [2, 'A'],
        [4, 'Deep'],
        [1, 'Brand'],
        [3, ''],
      ],
    );
    assert.equal(page.h1Count, 2);
    assert.deepEqual(page.h1Texts, ['Main title', 'Brand']);
    assert.equal(page.headingCount, 5);
  });
  it('closes an unclosed heading at the next one', () => {
    const page = facts('<h2>First<h3>Second</h3>');
    assert.deepEqual(
      page.headings.map((h) => [h.level, h.text]),
      [
        [2, 'First'],
        [3, 'Second'],
      ],
    );
  });
  it('takes unknown elements named like Object members for nothing', () => {
    const page = facts('<constructor>Build</constructor><tostring>x</tostring><h2>Real</h2><p>four words in all</p>');
    assert.deepEqual(
      page.headings.map((h) => [h.level, h.text]),
      [[2, 'Real']],
    );
    assert.equal(page.headingCount, 1);
    assert.equal(page.text.wordCount, 7);
  });
});

describe('visible text', () => {
  it('counts words of the body, skipping script, style, noscript, template and title', () => {
    const page = facts(
      '<title>Not counted</title><style>p{color:red}</style><body><p>One two</p><script>var a = "no words";</script><noscript>Enable scripts</noscript><template><p>inert text</p></template><p>three</p></body>',
    );
    assert.equal(page.text.wordCount, 3);
  });
  it('splits words on non-breaking spaces but not on inline tags or entities', () => {
    assert.equal(facts('<p>one&nbsp;two\u00a0three &nbsp; </p>').text.wordCount, 3);
    assert.equal(facts('<p>&nbsp;</p>').text.wordCount, 0);
    assert.equal(facts('<p>foo<b>bar</b> AT&amp;T</p>').text.wordCount, 2);
    assert.equal(facts('<p>foo</p><p>bar</p>baz<br>qux').text.wordCount, 4);
  });
  it('ignores comments and CDATA sections', () => {
    assert.equal(facts('<p>kept</p><!-- two hidden words --><![CDATA[ three more words ]]>').text.wordCount, 1);
  });
  it('hashes the lower-cased normalized text, so layout and case do not matter', () => {
    const a = facts('<div><p>Hello   World</p><p>again</p></div>');
    const b = facts('<section>hello world\n<span>AGAIN</span></section>');
    const c = facts('<p>hello world again!</p>');
    assert.equal(a.mainText.textHash, b.mainText.textHash);
    assert.notEqual(a.mainText.textHash, c.mainText.textHash);
    assert.match(a.mainText.textHash, /^[0-9a-f]{64}$/);
  });
  // With unweighted 3-word shingles, one edited word in a 100+ word page of the PostgreSQL
  // manual moves 0–8 bits (78 % within 3); unrelated pages of it are 10–43 bits apart.
  it('gives near-identical texts close SimHashes and different texts distant ones', () => {
    const words = (seed: number) => Array.from({ length: 300 }, (_, i) => `w${(i * seed) % 997}`).join(' ');
    const base = facts(`<p>${words(7)}</p>`).mainText.simhash;
    const edited = facts(`<p>${words(7).replace('w7 ', 'changed ')}</p>`).mainText.simhash;
    const other = facts(`<p>${words(13)}</p>`).mainText.simhash;
    assert.match(base, /^[0-9a-f]{16}$/);
    assert.ok(bitsApart(base, edited) <= 8, `edited page differs by ${bitsApart(base, edited)} bits`);
    assert.ok(bitsApart(base, other) >= 16, `other page differs by only ${bitsApart(base, other)} bits`);
  });
});

describe('links', () => {
  it('resolves relative and protocol-relative hrefs and drops the fragment', () => {
    const page = facts(
      '<a href="next.html#s2">Next</a><a href="../up/">Up</a><a href="//cdn.example.net/a?b=1">CDN</a><a href="?q=1">Query</a><a href="#top">Top</a><a href="">Self</a>',
    );
    assert.deepEqual(
      page.links.map((l) => [l.url, l.samePage]),
      [
        ['https://example.com/docs/next.html', false],
        ['https://example.com/up/', false],
        ['https://cdn.example.net/a?b=1', false],
        ['https://example.com/docs/page.html?q=1', false],
        ['https://example.com/docs/page.html', true],
        ['https://example.com/docs/page.html', true],
      ],
    );
  });
  it('resolves against <base href>, even for links written before it', () => {
    const page = facts(
      '<a href="early">E</a><base href="https://static.example.org/v2/"><base href="/ignored/"><a href="late">L</a><form></form>',
    );
    assert.equal(page.baseHref, 'https://static.example.org/v2/');
    assert.equal(page.baseUrl, 'https://static.example.org/v2/');
    assert.deepEqual(
      page.links.map((l) => l.url),
      ['https://static.example.org/v2/early', 'https://static.example.org/v2/late'],
    );
    assert.equal(page.forms[0]?.url, PAGE, 'an empty form action submits to the document, not the base');
  });
  it('keeps javascript:, mailto: and tel: links with their scheme and no url', () => {
    const page = facts(
      '<a href="javascript:void(0)">Menu</a><a href="MAILTO:a@example.com">Mail</a><a href="tel:+41">Call</a><a href="http://exa mple.com/">Bad</a>',
    );
    assert.deepEqual(
      page.links.map((l) => [l.scheme, l.url]),
      [
        ['javascript', null],
        ['mailto', null],
        ['tel', null],
        [null, null],
      ],
    );
    assert.equal(page.links[0]?.href, 'javascript:void(0)');
  });
  it('collapses anchor text, splits rel tokens and knows nav links', () => {
    const page = facts(
      '<nav><a href="/a" REL="NoFollow  UGC">  Read\n  <b>more</b> </a></nav><div role="navigation"><a href="/b" rel="sponsored">B</a></div><a href="/c">C</a>',
    );
    assert.deepEqual(
      page.links.map((l) => [l.text, l.rel, l.inNav]),
      [
        ['Read more', ['nofollow', 'ugc'], true],
        ['B', ['sponsored'], true],
        ['C', [], false],
      ],
    );
  });
  it('names links by text, image alt, svg title, aria-label or title', () => {
    const page = facts(
      '<a href="/1"><img src="i.png" alt="Home"></a><a href="/2"><svg><title>Cart</title></svg></a><a href="/3" aria-label="Close"></a><a href="/4" title="Help"></a><a href="/5"><img src="x.png"></a><a href="/6"> </a>',
    );
    assert.deepEqual(
      page.links.map((l) => [l.text, l.named]),
      [
        ['', true],
        ['', true],
        ['', true],
        ['', true],
        ['', false],
        ['', false],
      ],
    );
  });
  it('closes unclosed anchors at the next one and counts links in noscript but not in templates', () => {
    const page = facts(
      '<p><a href="/one">one<a href="/two">two</p><noscript><a href="/ns">fallback</a></noscript><template><a href="/t">t</a></template><a name="anchor">no href</a>',
    );
    assert.deepEqual(
      page.links.map((l) => [l.url, l.text, l.inNoscript]),
      [
        ['https://example.com/one', 'one', false],
        ['https://example.com/two', 'two', false],
        ['https://example.com/ns', 'fallback', true],
      ],
    );
    assert.equal(page.linkCount, 3);
  });
  it(`keeps the scheme but resolves no url for an href over ${PAGE_FACT_CAPS.resolvableHrefChars} characters`, () => {
    const href = `https://example.com/?q=${'x'.repeat(PAGE_FACT_CAPS.resolvableHrefChars)}`;
    const link = facts(`<a href="${href}">long</a>`).links[0];
    assert.deepEqual([link?.scheme, link?.url, link?.href.length], ['https', null, PAGE_FACT_CAPS.hrefChars]);
  });
  it('ignores links inside comments', () => {
    assert.equal(facts('<!-- <a href="/hidden">x</a> --><a href="/shown">y</a>').linkCount, 1);
  });
  it(`records at most ${PAGE_FACT_CAPS.links} links but counts them all`, () => {
    const page = facts('<a href="/x">x</a>'.repeat(PAGE_FACT_CAPS.links + 7));
    assert.equal(page.links.length, PAGE_FACT_CAPS.links);
    assert.equal(page.linkCount, PAGE_FACT_CAPS.links + 7);
  });
  it('cuts long anchor text at the cap', () => {
    const text = facts(`<a href="/">${'word '.repeat(100)}</a>`).links[0]?.text ?? '';
    assert.equal([...text].length, PAGE_FACT_CAPS.anchorText);
  });
});

describe('images', () => {
  it('tells a missing alt from an empty one and keeps size, loading and srcset', () => {
    const page = facts(
      '<img src="a.png" alt="A cat" width="10" height="20" loading="LAZY"><img src="/b.png" alt=""><img src="data:image/gif;base64,R0lGOD" srcset="c-1x.jpg 1x, /w_100,h_100/c.jpg 2x">',
    );
    assert.deepEqual(
      page.images.map((i) => [i.url, i.alt, i.width, i.height, i.loading]),
      [
        ['https://example.com/docs/a.png', 'A cat', '10', '20', 'lazy'],
        ['https://example.com/b.png', '', null, null, null],
        [null, null, null, null, null],
      ],
    );
    assert.equal(page.images[2]?.hasSrcset, true);
    assert.deepEqual(page.images[2]?.srcset, ['https://example.com/docs/c-1x.jpg', 'https://example.com/w_100,h_100/c.jpg']);
    assert.equal(page.imageCount, 3);
  });
  it('flags noscript fallbacks of lazy-loaded images', () => {
    const page = facts('<img data-src="real.jpg" alt="x"><noscript><img src="real.jpg" alt="x"></noscript>');
    assert.deepEqual(
      page.images.map((i) => [i.src, i.inNoscript]),
      [
        [null, false],
        ['real.jpg', true],
      ],
    );
  });
});

describe('scripts and stylesheets', () => {
  it('tells blocking head scripts and stylesheets from async, deferred, module and body ones', () => {
    const page = facts(
      [
        '<head><script src="/a.js"></script><script async src="b.js"></script><script defer src="c.js"></script>',
        '<script type="module" src="m.js"></script><script type="text/template" src="t.html"></script>',
        '<link rel="stylesheet" href="/s.css"><link rel="stylesheet" href="p.css" media="print"><link rel="alternate stylesheet" href="alt.css">',
        '<script>var x = 1;</script><style>body{}</style></head><body><script src="/late.js"></script><style>p{}</style></body>',
      ].join(''),
    );
    assert.deepEqual(
      page.scripts.map((s) => [s.src, s.kind, s.inHead, s.blocking]),
      [
        ['/a.js', 'classic', true, true],
        ['b.js', 'classic', true, false],
        ['c.js', 'classic', true, false],
        ['m.js', 'module', true, false],
        ['t.html', 'data', true, false],
        ['/late.js', 'classic', false, false],
      ],
    );
    assert.deepEqual(
      page.stylesheets.map((s) => [s.url, s.blocking]),
      [
        ['https://example.com/s.css', true],
        ['https://example.com/docs/p.css', false],
        ['https://example.com/docs/alt.css', false],
      ],
    );
    assert.deepEqual(page.inlineScripts, { count: 1, chars: 10 });
    assert.deepEqual(page.inlineStyles, { count: 2, chars: 9 });
  });
});

describe('iframes, forms and mixed content', () => {
  it('lists iframes with their titles', () => {
    const page = facts('<iframe src="https://player.example/v" title=" Video "></iframe><iframe src="/x"></iframe>');
    assert.deepEqual(
      page.iframes.map((f) => [f.url, f.title]),
      [
        ['https://player.example/v', 'Video'],
        ['https://example.com/x', null],
      ],
    );
  });
  it('resolves form actions so an http: target shows', () => {
    const page = facts('<form action="http://example.com/login" method="POST"></form><form action="/search"></form>');
    assert.deepEqual(
      page.forms.map((f) => [f.url, f.method]),
      [
        ['http://example.com/login', 'post'],
        ['https://example.com/search', 'get'],
      ],
    );
  });
  it('finds http: subresources on an https page, but not http: links or canonicals', () => {
    const page = facts(
      [
        '<link rel="stylesheet" href="http://cdn.example/s.css"><link rel="icon" href="http://example.com/f.ico">',
        '<link rel="canonical" href="http://example.com/p"><a href="http://example.com/plain">link</a>',
        '<img src="http://img.example/a.png"><img src="b.png" srcset="http://img.example/b2.png 2x"><script src="//legacy.example/x.js"></script>',
        '<video poster="http://v.example/p.jpg"><source src="http://v.example/v.mp4"></video><iframe src="http://frame.example/"></iframe><object data="http://o.example/o.swf"></object>',
      ].join(''),
    );
    assert.deepEqual(page.mixedContent.items.map((m) => m.source).sort(), [
      'iframe[src]',
      'img[src]',
      'img[srcset]',
      'link[href]',
      'link[href]',
      'object[data]',
      'source[src]',
      'video[poster]',
    ]);
    assert.equal(page.mixedContent.count, 8);
  });
  it('reports no mixed content on an http page, where protocol-relative URLs are http too', () => {
    assert.equal(facts('<img src="//img.example/a.png">', {}, 'http://example.com/').mixedContent.count, 0);
  });
  it('sees relative URLs as mixed when <base href> is http on an https page', () => {
    assert.equal(facts('<base href="http://example.com/"><img src="a.png">').mixedContent.count, 1);
  });
});

describe('social meta', () => {
  it('reads Open Graph and Twitter tags by property or name, first one winning', () => {
    const page = facts(
      '<meta property="og:title" content="OG title"><meta property="og:title" content="Second"><meta name="og:image" content="/i.png"><meta property="OG:Type" content="article"><meta name="twitter:card" content="summary_large_image">',
    );
    assert.deepEqual(page.openGraph, { title: 'OG title', description: null, image: '/i.png', url: null, type: 'article' });
    assert.equal(page.twitter.card, 'summary_large_image');
  });
});

describe('structured data', () => {
  it('parses JSON-LD, collecting @type values through @graph and nested nodes', () => {
    const page = facts(`<script type="application/ld+json">
      {"@context":"https://schema.org","@graph":[{"@type":"Product","name":"A&amp;B","offers":{"@type":"Offer","price":"1"}},{"@type":["Organization","Brand"]}]}
    </script>`);
    assert.equal(page.jsonLdCount, 1);
    const block = page.jsonLd[0];
    assert.equal(block?.error, null);
    assert.deepEqual(block?.types, ['Product', 'Offer', 'Organization', 'Brand']);
    assert.equal(
      (block?.value as { '@graph': { name: string }[] } | undefined)?.['@graph'][0]?.name,
      'A&amp;B',
      'script text is raw, not entity-decoded',
    );
    assert.equal(page.inlineScripts.count, 0, 'a data block is not an inline script');
  });
  it('reports a JSON-LD syntax error with the parser message', () => {
    const page = facts('<script type="Application/LD+JSON">{"@type": "Article", "headline": "x",}</script>');
    const block = page.jsonLd[0];
    assert.equal(block?.value, undefined);
    assert.match(block?.error ?? '', /JSON/);
    assert.equal(block?.raw, '{"@type": "Article", "headline": "x",}');
    assert.deepEqual(block?.types, []);
  });
  it('notes microdata item scopes and types', () => {
    const page = facts(
      '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">A</span><div itemscope itemtype="https://schema.org/Offer"></div></div>',
    );
    assert.deepEqual(page.microdata, { itemscopeCount: 2, itemtypes: ['https://schema.org/Product', 'https://schema.org/Offer'] });
  });
});

describe('meta refresh', () => {
  it('reads the delay and resolves the target', () => {
    const page = facts('<meta http-equiv="Refresh" content="5; URL=\'/moved.html\'">');
    assert.deepEqual(page.metaRefresh, { content: "5; URL='/moved.html'", delaySeconds: 5, url: 'https://example.com/moved.html' });
    assert.deepEqual(page.metaRefreshes, { count: 1, instances: ["5; URL='/moved.html'"] });
  });
  it('reads a bare delay as a reload of the page itself', () => {
    assert.deepEqual(facts('<meta http-equiv="refresh" content="0">').metaRefresh, { content: '0', delaySeconds: 0, url: null });
  });
});

describe('head and body', () => {
  it('counts meta tags that come after the head ended', () => {
    const page = facts('<head><meta name="a" content="1"></head><body><p>x</p><meta name="robots" content="noindex"></body>');
    assert.deepEqual(page.metaInBody, { count: 1, instances: ['meta[name=robots]'] });
    assert.equal(page.robots.meta.noindex, true, 'a noindex in the body still counts');
  });
  it('ends the head at text, but not at a noscript fallback in the head', () => {
    assert.equal(facts('<head><noscript><img src="p.gif"></noscript><meta name="x" content="y"></head>').metaInBody.count, 0);
    assert.equal(facts('<head>stray text<meta name="x" content="y"></head>').metaInBody.count, 1);
    assert.equal(facts('<head><svg></svg><meta name="x" content="y"></head>').metaInBody.count, 1);
  });
  it('keeps a CSP meta only in the head, where browsers apply it', () => {
    const page = facts(
      '<head><meta http-equiv="Content-Security-Policy" content="default-src \'self\'"></head><body><p>x</p><meta http-equiv="content-security-policy" content="script-src *"></body>',
    );
    assert.deepEqual(page.cspMetas, ["default-src 'self'"]);
  });
});

describe('DOM size', () => {
  it('counts elements, depth and the widest parent, skipping template content', () => {
    const page = facts(
      '<html><body><ul><li>1<li>2<li>3</ul><div><div><div><span>deep</span></div></div></div><template><p>a</p><p>b</p></template></body></html>',
    );
    assert.deepEqual(page.dom, { elementCount: 11, maxDepth: 6, maxChildren: 3 });
  });
});

describe('truncation', () => {
  it('reads whole documents', () => {
    assert.equal(facts('<p>x</p>').truncated, null);
  });
  it(`stops reading past ${PAGE_FACT_CAPS.nestingDepth} open elements, keeping what came before`, () => {
    const depth = PAGE_FACT_CAPS.nestingDepth;
    const started = performance.now();
    const page = facts(`<title>Deep</title><a href="/before">before</a>${'<div>'.repeat(200_000)}<a href="/after">after</a>`);
    assert.ok(performance.now() - started < 2_000, 'stopping keeps htmlparser2 out of its quadratic stack');
    assert.deepEqual(page.truncated, { reason: 'nesting-depth', atChar: 47 + (depth - 1) * 5 });
    assert.equal(page.title?.text, 'Deep');
    assert.deepEqual(
      page.links.map((l) => l.text),
      ['before'],
    );
    assert.equal(page.dom.maxDepth, depth);
  });
});

describe('accessibility basics', () => {
  it('finds buttons without a name', () => {
    const page = facts(
      '<button>Save</button><button><img src="x.png" alt="Delete"></button><button aria-label="Close"></button><button id="b1"></button><div role="button"></div><input type="submit"><input type="button">',
    );
    assert.equal(page.accessibility.buttons.count, 7);
    assert.deepEqual(page.accessibility.buttons.failing, { count: 3, instances: ['button#b1', 'div', 'input[type=button]'] });
  });
  it('finds controls without a label, accepting label[for] written after the control', () => {
    const page = facts(
      '<input id="q" name="q"><label for="q">Search</label><label>Mail <input type="email"></label><input aria-label="Phone"><input type="hidden"><select name="s"></select><textarea id="t" placeholder="Not a label"></textarea>',
    );
    assert.equal(page.accessibility.controls.count, 5);
    assert.deepEqual(page.accessibility.controls.failing, { count: 2, instances: ['select[name=s]', 'textarea#t'] });
  });
  it('lists duplicate ids once each', () => {
    const page = facts('<div id="a"></div><p id="a"></p><span id="a"></span><i id="b"></i><svg><g id="b"></g></svg>');
    assert.deepEqual(page.accessibility.duplicateIds, { count: 2, instances: ['#a', '#b'] });
  });
});

describe('a real page: the PostgreSQL 15 manual', () => {
  // fixtures/postgres-docs-tutorial-select.html is tutorial-select.html from Debian's
  // postgresql-doc-15 package (PostgreSQL Licence; the notice is at the end of the file).
  const html = readFileSync(new URL('./fixtures/postgres-docs-tutorial-select.html', import.meta.url), 'utf8');
  const page = facts(html, { 'content-type': 'text/html; charset=utf-8' }, 'https://www.postgresql.org/docs/15/tutorial-select.html');

  it('reads its title, charset and headings', () => {
    assert.deepEqual(page.title, { text: '2.5. Querying a Table', length: 21, inHead: true });
    assert.equal(page.titleCount, 1);
    assert.deepEqual(page.charset, { header: 'utf-8', meta: 'utf-8', metaInFirst1024Bytes: true });
    assert.equal(page.h1Count, 0);
    assert.deepEqual(
      page.headings.map((h) => [h.level, h.text]),
      [[2, '2.5. Querying a Table']],
    );
    assert.equal(page.htmlLang, null);
    assert.equal(page.description, null);
    assert.equal(page.viewport, null);
  });
  it('finds its navigation and footnote links', () => {
    assert.equal(page.linkCount, 12);
    assert.equal(page.links.filter((l) => l.samePage).length, 4);
    const next = page.links.find((l) => l.text === 'Next');
    assert.equal(next?.url, 'https://www.postgresql.org/docs/15/tutorial-join.html');
    assert.ok(page.links.every((l) => l.named));
  });
  it('reads a plausible amount of text and one blocking stylesheet', () => {
    assert.ok(page.text.wordCount > 400 && page.text.wordCount < 800, `wordCount ${page.text.wordCount}`);
    assert.deepEqual(
      page.stylesheets.map((s) => [s.url, s.blocking]),
      [['https://www.postgresql.org/docs/15/stylesheet.css', true]],
    );
    assert.equal(page.metaInBody.count, 0);
    assert.equal(page.robots.combined.noindex, false);
    assert.ok(page.dom.elementCount > 50 && page.dom.elementCount < 1_500);
  });
});
