import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScopeGlob } from './scope-glob.ts';

const matches = (glob: string, path: string, query = '') => new ScopeGlob(glob).test({ path, pathAndQuery: path + query });

describe('scope globs', () => {
  it('keeps * inside one segment and lets ** cross segments', () => {
    assert.equal(matches('/products/*', '/products/shoe'), true);
    assert.equal(matches('/products/*', '/products/shoe/red'), false);
    assert.equal(matches('/products/**', '/products/shoe/red'), true);
    assert.equal(matches('/products/*.html', '/products/a.html'), true);
  });

  it('lets /x/** match /x itself, and /a/**/b match /a/b', () => {
    assert.equal(matches('/account/**', '/account'), true);
    assert.equal(matches('/account/**', '/account/'), true);
    assert.equal(matches('/account/**', '/accounts'), false);
    assert.equal(matches('/shop/**/p/*', '/shop/p/1'), true);
    assert.equal(matches('/shop/**/p/*', '/shop/men/shoes/p/1'), true);
    assert.equal(matches('/shop/**/p/*', '/shop/men/p'), false);
  });

  it('matches ** against every path, and a glob not starting with / at any depth', () => {
    assert.equal(matches('**', '/'), true);
    assert.equal(matches('**', '/a/b/.well-known'), true);
    assert.equal(matches('*.pdf', '/a.pdf'), true);
    assert.equal(matches('*.pdf', '/docs/2024/a.pdf'), true);
    assert.equal(matches('*.pdf', '/a.pdfx'), false);
  });

  it('knows ?, [classes], {alternatives} and escapes', () => {
    assert.equal(matches('/v?/api', '/v2/api'), true);
    assert.equal(matches('/v[0-9]/api', '/v2/api'), true);
    assert.equal(matches('/v[!0-9]/api', '/v2/api'), false);
    assert.equal(matches('/{blog,news}/*', '/news/today'), true);
    assert.equal(matches('/{blog,news}/*', '/about/today'), false);
    assert.equal(matches('/{docs/api,help}/**', '/docs/api/x'), true);
    assert.equal(matches('/a\\*b', '/a*b'), true);
    assert.equal(matches('/a\\*b', '/axb'), false);
    assert.equal(matches('/a.b', '/axb'), false);
  });

  it('matches a glob with ? against the path and query', () => {
    assert.equal(matches('/search?q=*', '/search', '?q=shoes'), true);
    assert.equal(matches('/search', '/search', '?q=shoes'), true);
    assert.equal(matches('/search?q=*', '/search'), false);
  });

  it('is case-sensitive and sees the decoded path', () => {
    assert.equal(matches('/Docs/*', '/docs/a'), false);
    assert.equal(matches('/café/*', '/café/menu'), true);
  });

  it('refuses negated globs', () => {
    assert.throws(() => new ScopeGlob('!/admin/**'), /exclude/);
  });

  it('runs a glob that makes backtracking matchers explode in linear time', () => {
    // picomatch's RegExp for this glob runs for more than a minute on a path of 3,000 characters.
    assert.equal(matches('**/*a*a*a*a*a*a*a*a*a*a*a*a*b', `/${'a'.repeat(5000)}`), false);
  });
});
