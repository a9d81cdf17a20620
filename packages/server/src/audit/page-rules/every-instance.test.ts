import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_INSTANCES } from '../finding-instances.ts';
import type { AuditedPage } from '../rule.ts';
import { check, compliantPage } from './test-page.ts';

const FORTY = 40;
const times = (n: number, markup: (i: number) => string) => Array.from({ length: n }, (_, i) => markup(i)).join('');
const description = (i: number) => `Description ${i} of a page that has far too many of them, each a little different from the others.`;

/** Checks whose page facts count more than a few of something: a page with `n` of it, and how the finding names the i-th. */
const CHECKS: { ruleId: string; page: (n: number) => AuditedPage; instance: (i: number) => string }[] = [
  {
    ruleId: 'accessibility-basic/button-no-name',
    page: (n) => compliantPage({ extraBody: times(n, (i) => `<button id="b${i}"></button>`) }),
    instance: (i) => `button#b${i}`,
  },
  {
    ruleId: 'accessibility-basic/input-no-label',
    page: (n) => compliantPage({ extraBody: times(n, (i) => `<input name="q${i}">`) }),
    instance: (i) => `input[name=q${i}]`,
  },
  {
    ruleId: 'accessibility-basic/duplicate-id',
    page: (n) => compliantPage({ extraBody: times(n, (i) => `<i id="d${i}"></i><b id="d${i}"></b>`) }),
    instance: (i) => `#d${i}`,
  },
  {
    ruleId: 'indexability/meta-in-body',
    page: (n) => compliantPage({ extraBody: times(n, (i) => `<meta name="m${i}" content="x">`) }),
    instance: (i) => `meta[name=m${i}]`,
  },
  {
    ruleId: 'descriptions/multiple',
    page: (n) => compliantPage({ description: null, head: times(n, (i) => `<meta name="description" content="${description(i)}">`) }),
    instance: description,
  },
  {
    ruleId: 'headings/h1-multiple',
    page: (n) => compliantPage({ extraBody: times(n - 1, (i) => `<h1>Heading ${i + 1}</h1>`) }),
    instance: (i) => (i === 0 ? 'Brewing green tea' : `Heading ${i}`),
  },
  {
    ruleId: 'redirects/meta-refresh',
    page: (n) => compliantPage({ head: times(n, (i) => `<meta http-equiv="refresh" content="${3600 + i}">`) }),
    instance: (i) => String(3600 + i),
  },
  {
    ruleId: 'titles/multiple',
    // A title after the head ended is no title to browsers: not counted, not listed.
    page: (n) => compliantPage({ title: null, head: times(n, (i) => `<title>Title ${i}</title>`), extraBody: '<title>Stray</title>' }),
    instance: (i) => `Title ${i}`,
  },
  {
    ruleId: 'security/mixed-content',
    page: (n) => compliantPage({ extraBody: times(n, (i) => `<img src="http://cdn.example.com/${i}.png" alt="" width="1" height="1">`) }),
    instance: (i) => `img[src] http://cdn.example.com/${i}.png`,
  },
];

const listed = (found: ReturnType<typeof check>) => [...(found?.samples ?? []), ...(found?.more ?? [])];

describe('page checks list every instance they count', () => {
  for (const { ruleId, page, instance } of CHECKS) {
    it(`${ruleId}: all forty, in document order`, () => {
      const found = check(ruleId, page(FORTY));
      assert.equal(found?.count, FORTY);
      assert.deepEqual(
        listed(found),
        Array.from({ length: FORTY }, (_, i) => instance(i)),
      );
    });

    it(`${ruleId}: ${MAX_INSTANCES} of ${MAX_INSTANCES + 1}, counting them all`, () => {
      const found = check(ruleId, page(MAX_INSTANCES + 1));
      assert.equal(found?.count, MAX_INSTANCES + 1);
      const kept = listed(found);
      assert.equal(kept.length, MAX_INSTANCES);
      assert.equal(kept.at(-1), instance(MAX_INSTANCES - 1));
    });
  }

  it('lists every untitled iframe and insecure form up to the bound, past the few hundred the facts kept', () => {
    const n = 300;
    const frames = check(
      'accessibility-basic/iframe-no-title',
      compliantPage({ extraBody: times(n, (i) => `<iframe src="https://video.example.net/${i}"></iframe>`) }),
    );
    assert.deepEqual(
      [frames?.count, listed(frames).at(-1), frames?.detail],
      [n, `https://video.example.net/${n - 1}`, '300 of 300 iframes'],
    );
    const forms = check(
      'security/insecure-form',
      compliantPage({ extraBody: times(n, (i) => `<form action="http://example.com/${i}"></form>`) }),
    );
    assert.deepEqual([forms?.count, listed(forms).at(-1)], [n, `form action=http://example.com/${n - 1}`]);
  });

  it('keeps long instances shortened as findings keep them', () => {
    const long = 'x'.repeat(500);
    const found = check('indexability/meta-in-body', compliantPage({ extraBody: `<meta name="${long}">`.repeat(2) }));
    assert.deepEqual(listed(found), [`meta[name=${'x'.repeat(60)}]`, `meta[name=${'x'.repeat(60)}]`]);
    const ids = check('accessibility-basic/duplicate-id', compliantPage({ extraBody: `<i id="${long}"></i>`.repeat(2) }));
    assert.deepEqual(listed(ids), [`#${'x'.repeat(158)}…`]);
  });
});
