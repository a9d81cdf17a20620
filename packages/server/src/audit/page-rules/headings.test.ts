import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage, words } from './test-page.ts';

function withHeadings(headings: string): ReturnType<typeof compliantPage> {
  return compliantPage({ body: `${headings}<p>${words(250)}</p><a href="/about">About us</a>` });
}

describe('headings/h1-missing', () => {
  it('fires without an h1', () => {
    assert.deepEqual(check('headings/h1-missing', withHeadings('<h2>Steeping</h2>')), { count: 1, samples: ['no <h1>'] });
  });
  it('fires when the only h1 is empty', () => {
    assert.equal(check('headings/h1-missing', withHeadings('<h1> </h1>'))?.detail, '1 H1 without text');
  });
  it("does not fire on an h1 with text, or named by its image's alt", () => {
    assert.equal(check('headings/h1-missing', withHeadings('<h1>Green tea</h1>')), null);
    assert.equal(check('headings/h1-missing', withHeadings('<h1><img src="/logo.png" alt="Example Teas"></h1>')), null);
  });
});

describe('headings/h1-multiple', () => {
  it('fires on two h1s', () => {
    assert.deepEqual(check('headings/h1-multiple', withHeadings('<h1>Green tea</h1><h1>Black tea</h1>')), {
      count: 2,
      samples: ['Green tea', 'Black tea'],
      detail: '2 H1s',
    });
  });
  it('does not fire on one', () => {
    assert.equal(check('headings/h1-multiple', withHeadings('<h1>Green tea</h1><h2>Steeping</h2>')), null);
  });
});

describe('headings/skipped-level', () => {
  it('fires when a level is skipped going down', () => {
    assert.deepEqual(check('headings/skipped-level', withHeadings('<h1>Tea</h1><h2>Green</h2><h4>Sencha</h4>')), {
      count: 1,
      samples: ['h2 → h4 "Sencha"'],
      detail: '1 skip',
    });
  });
  it('fires when the first heading is an h3, since the walk starts at level 1', () => {
    assert.equal(check('headings/skipped-level', withHeadings('<h3>Tea</h3>'))?.samples[0], 'h1 → h3 "Tea"');
  });
  it('does not fire on one level at a time, on going back up, or on a page starting at h2', () => {
    assert.equal(check('headings/skipped-level', withHeadings('<h1>A</h1><h2>B</h2><h3>C</h3><h2>D</h2><h3>E</h3>')), null);
    assert.equal(check('headings/skipped-level', withHeadings('<h1>A</h1><h2>B</h2><h3>C</h3><h4>D</h4><h2>E</h2>')), null);
    assert.equal(check('headings/skipped-level', withHeadings('<h2>A</h2><h3>B</h3>')), null);
  });
});
