import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, selectAll } from 'css-select';
import type { AnyNode, Element } from 'domhandler';
import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import type { ElementQuery } from './compiled-rule.ts';
import { SubjectView } from './subject-view.ts';
import { subject } from './test-rules.ts';

const PAGE = `<!doctype html><html lang="en"><head><title>T</title><script>var a = '<p>';</script><style>p{}</style></head>
<body><!-- <p>comment</p> --><main><h1>One</h1><section><h2>A</h2><p>first</p><p>second <b>bold</b></p></section>
<section><p>third</p><template><p>inside a template</p></template><div><p>deep</p></div></section>
<ul><li><a href="/x">x</a></li><li><a href="https://e.test/">e</a></li></ul><p>last</p></main></body></html>`;

describe('subject view', () => {
  it('selects what css-select selects, in document order, template contents left out as there', () => {
    const document = parseDocument(PAGE);
    const view = SubjectView.of(subject({ html: PAGE }));
    const selectors = [
      'p',
      'section > p:first-of-type',
      'section:has(h2) p',
      'h1 ~ section p',
      'template',
      'a[href^="http"]',
      'script, style',
      ':root',
      '*',
      'li:nth-child(2) a',
      'table',
    ];
    for (const selector of selectors) {
      const query = compile<AnyNode, Element>(selector) as ElementQuery;
      const expected = selectAll<AnyNode, Element>(query, document).map((element) => `${element.name}@${element.startIndex}`);
      const actual = (view.select(query) ?? []).map((element) => `${element.name}@${element.startIndex}`);
      assert.deepEqual(actual, expected, selector);
    }
    assert.equal(
      view.select(compile<AnyNode, Element>('p') as ElementQuery)?.length,
      5,
      'not the template’s, nor the comment’s or script’s text',
    );
  });

  it('selects in a page nested deeper than the call stack', () => {
    const depth = 10_000;
    const view = SubjectView.of(subject({ html: `<html><body>${'<div>'.repeat(depth)}<p>bottom</p></body></html>` }));
    assert.equal(view.select(compile<AnyNode, Element>('div') as ElementQuery)?.length, depth);
    assert.equal(view.select(compile<AnyNode, Element>('div > p') as ElementQuery)?.length, 1);
  });

  it('reads the text of elements nested deeper than the call stack, as textContent reads shallow ones', () => {
    // domutils' textContent overflowed the call stack from about 5,000 levels.
    const depth = 10_000;
    const view = SubjectView.of(
      subject({ html: `<html><body>${'<div>'.repeat(depth)}<p>bottom <!-- hidden --><b>line</b></p></body></html>` }),
    );
    const divs = view.select(compile<AnyNode, Element>('div') as ElementQuery) ?? [];
    assert.equal(view.elementText(divs[0] as Element), 'bottom line');
    const shallow = SubjectView.of(subject({ html: PAGE }));
    const sections = shallow.select(compile<AnyNode, Element>('section, ul') as ElementQuery) ?? [];
    const collapsed = (element: Element) => textContent(element).replace(/\s+/g, ' ').trim();
    assert.deepEqual(
      sections.map((element) => shallow.elementText(element)),
      sections.map(collapsed),
    );
  });

  it('selects nothing, rather than an empty list, from an answer without HTML', () => {
    const view = SubjectView.of(subject({ html: null, visibleText: null, title: null }));
    assert.equal(view.select(compile<AnyNode, Element>('p') as ElementQuery), null);
  });

  it('selects from the rendered DOM apart from the raw one, parsing it only once a rendered selector asks', () => {
    const p = compile<AnyNode, Element>('p') as ElementQuery;
    const page = subject({ html: '<body><p>raw</p></body>' });
    const view = SubjectView.of(page);
    assert.equal(view.select(p)?.length, 1);
    // Set after the raw DOM was read: had the view parsed every DOM up front, it would not see it.
    page.renderedHtml = '<body><p>one</p><p>two</p></body>';
    assert.deepEqual(
      view.select(p, 'rendered')?.map((element) => view.elementText(element)),
      ['one', 'two'],
    );
    assert.equal(view.select(p)?.length, 1, 'the raw selection is its own');
  });

  it('selects nothing from the rendered DOM of a page that was not rendered', () => {
    const p = compile<AnyNode, Element>('p') as ElementQuery;
    assert.equal(SubjectView.of(subject()).select(p, 'rendered'), null);
    assert.equal(SubjectView.of(subject({ renderedHtml: null })).document('rendered'), null);
  });
});
