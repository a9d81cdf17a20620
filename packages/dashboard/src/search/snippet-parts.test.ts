import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { snippetParts } from './snippet-parts.ts';

describe('search snippets as text runs', () => {
  it('splits the marked words from the text around them', () => {
    assert.deepEqual(snippetParts('Our brass <mark>lanterns</mark> light every <mark>harbour</mark> path'), [
      { text: 'Our brass ', marked: false },
      { text: 'lanterns', marked: true },
      { text: ' light every ', marked: false },
      { text: 'harbour', marked: true },
      { text: ' path', marked: false },
    ]);
  });

  it('decodes the escaped characters of the page text, so they read as written', () => {
    assert.deepEqual(snippetParts('Never paste &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; it&#39;s &#x263A;'), [
      { text: 'Never paste <script>alert("x")</script> & it\'s ☺', marked: false },
    ]);
  });

  it('keeps any tag but mark as text, never as markup', () => {
    assert.deepEqual(snippetParts('<b>bold</b> <mark><img src=x onerror=alert(1)></mark>'), [
      { text: '<b>bold</b> ', marked: false },
      { text: '<img src=x onerror=alert(1)>', marked: true },
    ]);
  });

  it('leaves an unknown entity as written, and joins runs the marks no longer separate', () => {
    assert.deepEqual(snippetParts('a &bogus; b<mark></mark> c'), [{ text: 'a &bogus; b c', marked: false }]);
  });

  it('reads an empty snippet as nothing', () => {
    assert.deepEqual(snippetParts(''), []);
  });
});
