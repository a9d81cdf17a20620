import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage } from './test-page.ts';

function withMarkup(markup: string) {
  return compliantPage({ extraBody: markup });
}

describe('accessibility-basic/html-lang-missing', () => {
  it('fires without a lang attribute, or with an empty one', () => {
    assert.deepEqual(check('accessibility-basic/html-lang-missing', compliantPage({ lang: null })), {
      count: 1,
      samples: ['<html> without lang'],
    });
    assert.notEqual(check('accessibility-basic/html-lang-missing', compliantPage({ lang: ' ' })), null);
  });
  it('does not fire with a language', () => {
    assert.equal(check('accessibility-basic/html-lang-missing', compliantPage()), null);
  });
});

describe('accessibility-basic/html-lang-invalid', () => {
  it('fires on an underscore, a language name and a dangling hyphen', () => {
    for (const lang of ['en_US', 'english', 'en-', '12']) {
      assert.equal(check('accessibility-basic/html-lang-invalid', compliantPage({ lang }))?.detail, `lang="${lang}"`, lang);
    }
  });
  it('does not fire on well-formed BCP 47 tags, or when lang is absent', () => {
    for (const lang of ['en', 'en-US', 'zh-Hant-TW', 'es-419', 'de-CH-1996', 'zh-cmn-Hans-CN', 'x-private', 'en-US-u-ca-gregory']) {
      assert.equal(check('accessibility-basic/html-lang-invalid', compliantPage({ lang })), null, lang);
    }
    assert.equal(check('accessibility-basic/html-lang-invalid', compliantPage({ lang: null })), null);
  });
});

describe('accessibility-basic/link-no-name', () => {
  it('fires on an icon link without text or label', () => {
    const verdict = check('accessibility-basic/link-no-name', withMarkup('<a href="/cart"><img src="/cart.svg" width="4" height="3"></a>'));
    assert.deepEqual(verdict, { count: 1, samples: ['/cart'] });
  });
  it('does not fire on links named by text, alt, aria-label or title', () => {
    const page = withMarkup(
      '<a href="/cart"><img src="/cart.svg" alt="Cart"></a><a href="/search" aria-label="Search"></a><a href="/help" title="Help"></a>',
    );
    assert.equal(check('accessibility-basic/link-no-name', page), null);
  });
});

describe('accessibility-basic/button-no-name', () => {
  it('fires on an icon button without a name', () => {
    const verdict = check('accessibility-basic/button-no-name', withMarkup('<button id="menu"><svg></svg></button><button>Send</button>'));
    assert.deepEqual(verdict, { count: 1, samples: ['button#menu'], detail: '1 of 2 buttons' });
  });
  it('does not fire on buttons with text or aria-label', () => {
    assert.equal(
      check('accessibility-basic/button-no-name', withMarkup('<button>Send</button><button aria-label="Close"></button>')),
      null,
    );
  });
});

describe('accessibility-basic/input-no-label', () => {
  it('fires on a field with only a placeholder', () => {
    const verdict = check('accessibility-basic/input-no-label', withMarkup('<input type="email" name="mail" placeholder="Email">'));
    assert.deepEqual(verdict, { count: 1, samples: ['input[type=email][name=mail]'], detail: '1 of 1 form field' });
  });
  it('does not fire on labelled fields or hidden inputs', () => {
    const page = withMarkup(
      '<label for="m">Email</label><input id="m" type="email"><label>Name <input name="n"></label><input type="hidden" name="t">',
    );
    assert.equal(check('accessibility-basic/input-no-label', page), null);
  });
});

describe('accessibility-basic/iframe-no-title', () => {
  it('fires on an iframe without a title', () => {
    assert.deepEqual(
      check('accessibility-basic/iframe-no-title', withMarkup('<iframe src="https://video.example.net/embed/1"></iframe>')),
      {
        count: 1,
        samples: ['https://video.example.net/embed/1'],
        detail: '1 of 1 iframe',
      },
    );
  });
  it('does not fire when it has one', () => {
    assert.equal(
      check(
        'accessibility-basic/iframe-no-title',
        withMarkup('<iframe src="https://video.example.net/embed/1" title="Brewing video"></iframe>'),
      ),
      null,
    );
  });
});

describe('accessibility-basic/duplicate-id', () => {
  it('fires on two elements with the same id', () => {
    assert.deepEqual(check('accessibility-basic/duplicate-id', withMarkup('<div id="tip"></div><p id="tip"></p>')), {
      count: 1,
      samples: ['#tip'],
      detail: '1 id used more than once',
    });
  });
  it('does not fire on unique ids', () => {
    assert.equal(check('accessibility-basic/duplicate-id', withMarkup('<div id="tip"></div><p id="note"></p>')), null);
  });
});
