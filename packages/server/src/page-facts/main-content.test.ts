import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { mainTextOf } from './main-content.ts';
import { extractPageFacts, PAGE_FACT_CAPS, type PageFacts } from './page-facts.ts';

function facts(html: string): PageFacts {
  const page = extractPageFacts(html, 'https://example.com/docs/page.html', {});
  // Whatever the markup, the ranges give back the main text out of the whole text (under their cap).
  if (page.mainText.ranges.length < PAGE_FACT_CAPS.mainTextRanges) {
    assert.equal(mainTextOf(page.text.text, page.mainText.ranges), page.mainText.text);
  }
  return page;
}

/** The markup mdBook writes around a chapter (trimmed): sidebar, menu bar with the theme menu, then main. */
const MDBOOK = `<!DOCTYPE html><html lang="en" class="light"><head><title>Validating References with Lifetimes</title></head><body>
<div id="body-container">
<nav id="sidebar" class="sidebar" aria-label="Table of contents"><div class="sidebar-scrollbox"><ol class="chapter">
<li class="chapter-item"><a href="ch01-00-getting-started.html"><strong>1.</strong> Getting Started</a></li>
<li class="chapter-item"><a href="ch10-03-lifetime-syntax.html" class="active"><strong>10.3.</strong> Validating References with Lifetimes</a></li>
</ol></div></nav>
<div id="page-wrapper" class="page-wrapper"><div class="page">
<div id="menu-bar-hover-placeholder"></div>
<div id="menu-bar" class="menu-bar sticky"><div class="left-buttons">
<button id="sidebar-toggle" class="icon-button" type="button" title="Toggle Table of Contents"><i class="fa fa-bars"></i></button>
<button id="theme-toggle" class="icon-button" type="button" title="Change theme"><i class="fa fa-paint-brush"></i></button>
<ul id="theme-list" class="theme-popup" aria-label="Themes" role="menu">
<li role="none"><button role="menuitem" class="theme" id="default_theme">Auto</button></li>
<li role="none"><button role="menuitem" class="theme" id="light">Light</button></li>
<li role="none"><button role="menuitem" class="theme" id="rust">Rust</button></li>
<li role="none"><button role="menuitem" class="theme" id="coal">Coal</button></li>
<li role="none"><button role="menuitem" class="theme" id="navy">Navy</button></li>
<li role="none"><button role="menuitem" class="theme" id="ayu">Ayu</button></li>
</ul></div>
<h1 class="menu-title">The Rust Programming Language</h1>
</div>
<div id="content" class="content"><main>
<h2 id="validating-references-with-lifetimes"><a class="header" href="#validating-references-with-lifetimes">Validating References with Lifetimes</a></h2>
<p>Lifetimes are another kind of generic that we've already been using.</p>
</main>
<nav class="nav-wrapper" aria-label="Page navigation"><a rel="prev" href="ch10-02-traits.html" class="mobile-nav-chapters previous" title="Previous chapter">Previous</a></nav>
</div></div></div></div></body></html>`;

describe('main content', () => {
  it("is an mdBook page's <main>, without the theme menu, the book's title or the sidebar", () => {
    const page = facts(MDBOOK);
    assert.equal(page.mainText.from, 'main');
    assert.equal(
      page.mainText.text,
      "Validating References with Lifetimes Lifetimes are another kind of generic that we've already been using.",
    );
    assert.equal(page.mainText.wordCount, 15);
    assert.match(page.text.text, /Auto Light Rust Coal Navy Ayu The Rust Programming Language/);
    assert.equal(page.mainText.ranges.length, 1);
  });

  it("is the PostgreSQL manual's body without its navheader and navfooter (DocBook, no landmarks)", () => {
    const html = readFileSync(new URL('./fixtures/postgres-docs-tutorial-select.html', import.meta.url), 'utf8');
    const page = facts(html);
    assert.equal(page.mainText.from, 'body');
    assert.ok(page.mainText.text.startsWith('2.5. Querying a Table To retrieve data from a table'), page.mainText.text.slice(0, 80));
    assert.ok(page.mainText.text.endsWith('does not guarantee that DISTINCT causes the rows to be ordered.'));
    assert.doesNotMatch(page.mainText.text, /\bPrev\b|\bHome\b|Chapter 2\. The SQL Language/);
    assert.match(page.text.text, /^2\.5\. Querying a Table Prev Up Chapter 2\. The SQL Language Home Next/);
    assert.ok(page.mainText.wordCount > 0.95 * page.text.wordCount - 40);
    assert.equal(page.mainText.ranges.length, 1);
  });

  it('leaves out the header, footer, aside and navigation landmarks of a page without <main>', () => {
    const page = facts(
      '<body><header><a href="/">Teashop</a> <a href="/cart">Cart</a></header>' +
        '<div role="navigation">Shop Blog</div><form role="search"><input name="q"> Find</form>' +
        '<h1>Green tea</h1><section><header><h2>Brewing</h2></header><p>Steep two minutes.</p><footer>Updated May</footer></section>' +
        '<aside>Related: black tea</aside><p>Enjoy.</p><search>Search the shop</search>' +
        '<footer><p>© Teashop</p><nav>Legal Privacy</nav></footer></body>',
    );
    assert.equal(page.mainText.from, 'body');
    assert.equal(page.mainText.text, 'Green tea Brewing Steep two minutes. Updated May Enjoy.');
    assert.equal(page.mainText.ranges.length, 2);
    assert.equal(page.text.wordCount, 24);
  });

  it('reads the names of chrome on elements in the page, never on the page itself', () => {
    const page = facts('<html class="menu"><body id="header" class="nav"><div id="Sidebar">Links</div><p>Kept</p></body></html>');
    assert.equal(page.mainText.text, 'Kept');
  });

  it('is the whole visible text of a page with no landmarks and no chrome', () => {
    const page = facts(
      '<html><body><h1>Plain</h1><div class="page-header">A page</div><p>with words, <b>all</b> of them content.</p></body></html>',
    );
    assert.equal(page.mainText.from, 'body');
    assert.equal(page.mainText.text, page.text.text);
    assert.equal(page.mainText.text, 'Plain A page with words, all of them content.');
    assert.equal(page.mainText.wordCount, page.text.wordCount);
    assert.deepEqual(page.mainText.ranges, [[0, page.text.text.length]]);
  });

  it('is empty on an empty page', () => {
    const page = facts('');
    assert.deepEqual([page.mainText.text, page.mainText.wordCount, page.mainText.ranges], ['', 0, []]);
  });

  it('is the first <main> only, keeping its own header and footer but not a nav or aside inside it', () => {
    const page = facts(
      '<div id="header">Site</div><div role="main"><header>Title</header><nav>Crumbs</nav><p>Body</p><aside>Aside</aside><footer>By me</footer></div>' +
        '<main>Second main</main><p>After</p>',
    );
    assert.equal(page.mainText.from, 'main');
    assert.equal(page.mainText.text, 'Title Body By me');
  });

  it('is the body without its chrome when the <main> is empty', () => {
    const page = facts(
      '<header>Site</header><main id="content"></main><div class="menu">Menu</div><p>Content here</p><footer>Legal</footer>',
    );
    assert.equal(page.mainText.from, 'body');
    assert.equal(page.mainText.text, 'Content here');
  });

  it('is a <main> even inside an element named like chrome, and whatever comes before it', () => {
    const page = facts('<p>Intro</p><div class="sidebar"><main><p>Content</p><div class="menu">Inner menu</div></main></div>');
    assert.equal(page.mainText.text, 'Content Inner menu');
  });

  it("is a page's articles when it has no <main>, but not an article inside an aside", () => {
    const page = facts(
      '<div class="header">Blog</div><article><header>One</header>First post.</article><p>Between</p>' +
        '<aside><article>Related</article></aside><article>Second post.</article>',
    );
    assert.equal(page.mainText.from, 'article');
    assert.equal(page.mainText.text, 'One First post. Second post.');
  });

  it('keeps at most PAGE_FACT_CAPS.mainTextRanges stretches, the last taking in the rest', () => {
    const count = PAGE_FACT_CAPS.mainTextRanges + 5;
    const page = facts(Array.from({ length: count }, (_, i) => `<p>w${i}</p><nav>n${i}</nav>`).join(''));
    assert.equal(page.mainText.wordCount, count);
    assert.equal(page.mainText.ranges.length, PAGE_FACT_CAPS.mainTextRanges);
    const searched = mainTextOf(page.text.text, page.mainText.ranges);
    assert.ok(searched.startsWith('w0 w1 w2 '));
    assert.ok(searched.includes(`w${PAGE_FACT_CAPS.mainTextRanges - 2} w${PAGE_FACT_CAPS.mainTextRanges - 1} n`));
    assert.ok(searched.endsWith(`n${count - 2} w${count - 1}`));
  });

  it('does not split a word at an inline element, whatever its class', () => {
    const page = facts('<p>foo<span class="menu">bar</span> baz</p>');
    assert.equal(page.mainText.text, 'foobar baz');
  });
});

describe('mainTextOf', () => {
  it('is the whole text without ranges, and the ranges cut at the kept text', () => {
    assert.equal(mainTextOf('a b c', null), 'a b c');
    assert.equal(
      mainTextOf('a b c d', [
        [2, 5],
        [6, 40],
      ]),
      'b c d',
    );
    assert.equal(mainTextOf('a b', [[10, 20]]), '');
  });
});
