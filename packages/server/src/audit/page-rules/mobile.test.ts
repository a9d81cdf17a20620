import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantHtml, compliantPage, htmlPage } from './test-page.ts';

const DEFAULT_VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">';

function withViewport(viewport: string) {
  return htmlPage(compliantHtml().replace(DEFAULT_VIEWPORT, viewport));
}

describe('mobile/viewport-missing', () => {
  it('fires without a viewport tag', () => {
    assert.deepEqual(check('mobile/viewport-missing', withViewport('')), { count: 1, samples: ['no <meta name="viewport">'] });
  });
  it('fires on an empty one, or one in the body', () => {
    assert.equal(check('mobile/viewport-missing', withViewport('<meta name="viewport" content="">'))?.detail, 'the viewport tag is empty');
    const inBody = htmlPage(compliantHtml().replace(DEFAULT_VIEWPORT, '').replace('</body>', `${DEFAULT_VIEWPORT}</body>`));
    assert.equal(check('mobile/viewport-missing', inBody)?.detail, 'the viewport tag is outside the head');
  });
  it('does not fire on a viewport in the head', () => {
    assert.equal(check('mobile/viewport-missing', compliantPage()), null);
  });
});

describe('mobile/zoom-disabled', () => {
  it('fires on user-scalable=no and on maximum-scale below 2', () => {
    assert.equal(
      check('mobile/zoom-disabled', withViewport('<meta name="viewport" content="width=device-width, user-scalable=no">'))?.detail,
      'user-scalable=no',
    );
    assert.equal(
      check('mobile/zoom-disabled', withViewport('<meta name="viewport" content="width=device-width, maximum-scale=1.9">'))?.detail,
      'maximum-scale=1.9',
    );
    assert.equal(
      check('mobile/zoom-disabled', withViewport('<meta name="viewport" content="width=device-width; user-scalable=0; maximum-scale=1">'))
        ?.count,
      2,
    );
  });
  it('does not fire at maximum-scale 2, with user-scalable=yes, or by default', () => {
    assert.equal(
      check(
        'mobile/zoom-disabled',
        withViewport('<meta name="viewport" content="width=device-width, maximum-scale=2, user-scalable=yes">'),
      ),
      null,
    );
    assert.equal(check('mobile/zoom-disabled', compliantPage()), null);
  });
});
