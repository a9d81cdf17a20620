import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexedText, MARK_END, MARK_START, snippetHtml, withAngleBrackets, withoutAngleBrackets } from './snippet-html.ts';

describe('snippet HTML', () => {
  it('escapes the text and turns only the marks into <mark> elements', () => {
    const marked = `a <b> & "c" 'd' ${MARK_START}match${MARK_END} </mark>`;
    assert.equal(snippetHtml(marked), 'a &lt;b&gt; &amp; &quot;c&quot; &#39;d&#39; <mark>match</mark> &lt;/mark&gt;');
  });

  it('escapes the stand-ins of angle brackets as the brackets they stand for', () => {
    assert.equal(snippetHtml(withoutAngleBrackets('<script>alert(1)</script>')), '&lt;script&gt;alert(1)&lt;/script&gt;');
    assert.equal(withAngleBrackets(withoutAngleBrackets('x < y > z')), 'x < y > z');
  });

  it('takes the marker characters out of page text, so a page cannot forge a mark', () => {
    const forged = indexedText(`${MARK_START}<script>${MARK_END}\uE002\uE003`);
    assert.equal(snippetHtml(forged), ' &lt;script&gt;   ');
  });
});
