import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantHtml, compliantPage, htmlPage } from './test-page.ts';

/** A title of exactly `length` code points. */
function titleOf(length: number): string {
  return 'T'.repeat(length);
}

describe('titles/missing', () => {
  it('fires when the head has no title', () => {
    assert.deepEqual(check('titles/missing', compliantPage({ title: null })), { count: 1, samples: ['no <title> in the head'] });
  });
  it('fires when the title is only whitespace', () => {
    assert.equal(check('titles/missing', compliantPage({ title: '  \n ' }))?.detail, 'the title is empty');
  });
  it('fires when the only title is in the body', () => {
    const html = compliantHtml({ title: null, extraBody: '<title>Brewing green tea, the patient way</title>' });
    assert.notEqual(check('titles/missing', htmlPage(html)), null);
  });
  it('does not fire on a page with a title', () => {
    assert.equal(check('titles/missing', compliantPage()), null);
  });
});

describe('titles/too-short', () => {
  it('fires at 29 code points, with the length', () => {
    assert.deepEqual(check('titles/too-short', compliantPage({ title: titleOf(29) })), {
      count: 1,
      samples: [titleOf(29)],
      detail: '29 characters',
    });
  });
  it('does not fire at 30 code points', () => {
    assert.equal(check('titles/too-short', compliantPage({ title: titleOf(30) })), null);
  });
  it('counts code points, not UTF-16 units or bytes', () => {
    assert.equal(check('titles/too-short', compliantPage({ title: '🍵'.repeat(30) })), null);
    assert.equal(check('titles/too-short', compliantPage({ title: '緑茶'.repeat(14) }))?.detail, '28 characters');
  });
  it('leaves an empty title to titles/missing', () => {
    assert.equal(check('titles/too-short', compliantPage({ title: '' })), null);
  });
});

describe('titles/too-long', () => {
  it('does not fire at 60 code points', () => {
    assert.equal(check('titles/too-long', compliantPage({ title: titleOf(60) })), null);
    assert.equal(check('titles/too-long', compliantPage({ title: '🍵'.repeat(60) })), null);
  });
  it('fires at 61 code points', () => {
    assert.equal(check('titles/too-long', compliantPage({ title: titleOf(61) }))?.detail, '61 characters');
  });
});

describe('titles/multiple', () => {
  it('fires on two titles in the head', () => {
    const page = compliantPage({ head: '<title>Green tea guide</title>' });
    assert.deepEqual(check('titles/multiple', page), {
      count: 2,
      samples: ['How to brew green tea without bitterness', 'Green tea guide'],
      detail: '2 titles',
    });
  });
  it('does not fire on one title in the head and another in the body', () => {
    assert.equal(check('titles/multiple', compliantPage({ extraBody: '<title>Stray</title>' })), null);
    assert.equal(check('titles/multiple', compliantPage()), null);
  });
});
