import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage } from './test-page.ts';

function withImages(images: string) {
  return compliantPage({ extraBody: images });
}

describe('images/alt-missing', () => {
  it('fires on an img without alt, and notes decorative ones', () => {
    const page = withImages(
      '<img src="/pot.jpg" width="4" height="3"><img src="/line.svg" alt="" width="4" height="3"><img src="/cup.jpg" alt="A cup" width="4" height="3">',
    );
    assert.deepEqual(check('images/alt-missing', page), {
      count: 1,
      samples: ['/pot.jpg'],
      detail: '1 of 3 images; 1 more with alt="" (decorative?)',
    });
  });
  it('does not fire on alt="" or role=presentation, or on noscript fallbacks', () => {
    const page = withImages(
      '<img src="/line.svg" alt=""><img src="/dot.svg" role="presentation"><noscript><img src="/pot.jpg"></noscript>',
    );
    assert.equal(check('images/alt-missing', page), null);
  });
});

describe('images/dimensions-missing', () => {
  it('fires when width or height is absent', () => {
    const page = withImages('<img src="/pot.jpg" alt="Pot" width="400"><img src="/cup.jpg" alt="Cup" width="400" height="300">');
    assert.deepEqual(check('images/dimensions-missing', page), { count: 1, samples: ['/pot.jpg'], detail: '1 of 2 images' });
  });
  it('does not fire when both are set', () => {
    assert.equal(check('images/dimensions-missing', withImages('<img src="/cup.jpg" alt="Cup" width="400" height="300">')), null);
  });
});
