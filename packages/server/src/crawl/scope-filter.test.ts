import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createScopeFilter } from './scope-filter.ts';

const origin = 'https://example.com/docs/start';

describe('createScopeFilter', () => {
  it('keeps every internal URL when there are no globs and no depth limit', () => {
    const inScope = createScopeFilter({ origin });
    assert.equal(inScope('https://example.com/anything/at/all?x=1', 40), 'ok');
    assert.equal(inScope('https://EXAMPLE.com:443/', 0), 'ok');
  });

  it('calls another host, scheme or port external, www. included', () => {
    const inScope = createScopeFilter({ origin });
    assert.equal(inScope('https://other.com/docs/', 1), 'external');
    assert.equal(inScope('http://example.com/docs/', 1), 'external');
    assert.equal(inScope('https://example.com:8443/docs/', 1), 'external');
    assert.equal(inScope('https://www.example.com/docs/', 1), 'external');
  });

  it('calls what is not an http(s) URL external', () => {
    const inScope = createScopeFilter({ origin });
    assert.equal(inScope('mailto:team@example.com', 1), 'external');
    assert.equal(inScope('/relative/path', 1), 'external');
  });

  it('excludes URLs that match no include glob', () => {
    const inScope = createScopeFilter({ origin, include: ['/docs/**'] });
    assert.equal(inScope('https://example.com/docs', 1), 'ok');
    assert.equal(inScope('https://example.com/docs/a/b', 1), 'ok');
    assert.equal(inScope('https://example.com/docsearch', 1), 'excluded');
    assert.equal(inScope('https://example.com/blog/', 1), 'excluded');
  });

  it('treats an empty include list as no include list', () => {
    assert.equal(createScopeFilter({ origin, include: [] })('https://example.com/blog/', 1), 'ok');
  });

  it('lets exclude win over include', () => {
    const inScope = createScopeFilter({ origin, include: ['/docs/**'], exclude: ['/docs/old/**'] });
    assert.equal(inScope('https://example.com/docs/new/page', 1), 'ok');
    assert.equal(inScope('https://example.com/docs/old/page', 1), 'excluded');
  });

  it('matches a path glob whatever the query', () => {
    const inScope = createScopeFilter({ origin, include: ['/docs/*'] });
    assert.equal(inScope('https://example.com/docs/page?next=/a/b', 1), 'ok');
  });

  it('matches a query glob against path and query together', () => {
    const inScope = createScopeFilter({ origin, exclude: ['/search?q=*', '*sort=*'] });
    assert.equal(inScope('https://example.com/search?q=shoes', 1), 'excluded');
    assert.equal(inScope('https://example.com/search', 1), 'ok');
    assert.equal(inScope('https://example.com/shop/list?page=2&sort=price', 1), 'excluded');
    assert.equal(inScope('https://example.com/shop/list?page=2', 1), 'ok');
  });

  it('sees the normalized URL: no fragment, no tracking parameters, percent-encoded', () => {
    const inScope = createScopeFilter({ origin, exclude: ['/a?*', '/caf%C3%A9'] });
    assert.equal(inScope('https://example.com/a?utm_source=x#frag', 1), 'ok');
    assert.equal(inScope('https://example.com/café', 1), 'excluded');
  });

  it('matches a glob without a leading slash at any depth', () => {
    const inScope = createScopeFilter({ origin, exclude: ['*.pdf', 'tag/*'] });
    assert.equal(inScope('https://example.com/a.pdf', 1), 'excluded');
    assert.equal(inScope('https://example.com/x/y/b.pdf', 1), 'excluded');
    assert.equal(inScope('https://example.com/blog/tag/news', 1), 'excluded');
    assert.equal(inScope('https://example.com/blog/tags/news', 1), 'ok');
  });

  it('is case-sensitive and matches dot segments', () => {
    const inScope = createScopeFilter({ origin, exclude: ['/Private/**', '/**/.well-known/*'] });
    assert.equal(inScope('https://example.com/private/x', 1), 'ok');
    assert.equal(inScope('https://example.com/Private/x', 1), 'excluded');
    assert.equal(inScope('https://example.com/app/.well-known/x', 1), 'excluded');
  });

  it('calls a URL deeper than maxDepth too deep, counting the start page as 0', () => {
    const inScope = createScopeFilter({ origin, maxDepth: 2 });
    assert.equal(inScope('https://example.com/a', 0), 'ok');
    assert.equal(inScope('https://example.com/a', 2), 'ok');
    assert.equal(inScope('https://example.com/a', 3), 'too-deep');
    assert.equal(createScopeFilter({ origin, maxDepth: 0 })('https://example.com/a', 1), 'too-deep');
  });

  it('answers external before excluded, and excluded before too deep', () => {
    const inScope = createScopeFilter({ origin, exclude: ['/**'], maxDepth: 0 });
    assert.equal(inScope('https://other.com/x', 5), 'external');
    assert.equal(inScope('https://example.com/x', 5), 'excluded');
  });

  it('refuses a negated glob and an origin that is not http(s)', () => {
    assert.throws(() => createScopeFilter({ origin, include: ['!/docs/**'] }), TypeError);
    assert.throws(() => createScopeFilter({ origin: 'ftp://example.com/' }), TypeError);
  });
});
