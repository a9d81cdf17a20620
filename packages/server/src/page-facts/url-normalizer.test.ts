import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTrackingParameter, normalizeUrl, sameSite } from './url-normalizer.ts';

describe('normalizeUrl', () => {
  it('resolves a relative link against its page', () => {
    assert.equal(normalizeUrl('../b/c?x=1', 'https://example.com/a/page.html'), 'https://example.com/b/c?x=1');
    assert.equal(normalizeUrl('//cdn.example.com/x', new URL('https://example.com/')), 'https://cdn.example.com/x');
  });

  it('refuses schemes other than http and https', () => {
    for (const href of ['mailto:a@example.com', 'javascript:alert(1)', 'data:text/html,hi', 'tel:+123', 'ftp://example.com/f']) {
      assert.equal(normalizeUrl(href, 'https://example.com/'), null, href);
    }
  });

  it('refuses what does not parse, and a relative link without a base', () => {
    assert.equal(normalizeUrl('http://[::1'), null);
    assert.equal(normalizeUrl('/relative'), null);
    assert.equal(normalizeUrl('/x', 'not a base'), null);
  });

  it('drops the fragment, and a bare #', () => {
    assert.equal(normalizeUrl('https://example.com/a?b=1#section'), 'https://example.com/a?b=1');
    assert.equal(normalizeUrl('https://example.com/a#'), 'https://example.com/a');
    assert.equal(normalizeUrl('#top', 'https://example.com/page'), 'https://example.com/page');
  });

  it('lowercases the scheme and the host but keeps the case of the path', () => {
    assert.equal(normalizeUrl('HTTPS://Example.COM/About/Team'), 'https://example.com/About/Team');
  });

  it('drops default ports only', () => {
    assert.equal(normalizeUrl('http://example.com:80/'), 'http://example.com/');
    assert.equal(normalizeUrl('https://example.com:443/'), 'https://example.com/');
    assert.equal(normalizeUrl('http://example.com:443/'), 'http://example.com:443/');
    assert.equal(normalizeUrl('https://example.com:8443/'), 'https://example.com:8443/');
  });

  it('writes an international host in punycode', () => {
    assert.equal(normalizeUrl('https://bücher.example/'), 'https://xn--bcher-kva.example/');
  });

  it('gives an empty path as /', () => {
    assert.equal(normalizeUrl('https://example.com'), 'https://example.com/');
  });

  it('resolves dot segments', () => {
    assert.equal(normalizeUrl('https://example.com/a/../b/./c'), 'https://example.com/b/c');
    assert.equal(normalizeUrl('https://example.com/../../x'), 'https://example.com/x');
  });

  it('removes tracking parameters and keeps the others in order', () => {
    assert.equal(normalizeUrl('https://example.com/p?z=1&utm_source=news&a=2&gclid=abc&m=3&fbclid=x'), 'https://example.com/p?z=1&a=2&m=3');
  });

  it('removes every documented tracking parameter', () => {
    const names = [
      'utm_medium',
      'utm_id',
      'gclid',
      'dclid',
      'gbraid',
      'wbraid',
      'fbclid',
      'msclkid',
      'mc_cid',
      'mc_eid',
      '_ga',
      '_gl',
      'igshid',
      'yclid',
      'ref_src',
    ];
    const query = names.map((name) => `${name}=1`).join('&');
    assert.equal(normalizeUrl(`https://example.com/?keep=1&${query}`), 'https://example.com/?keep=1');
  });

  it('matches tracking names case-insensitively and after decoding', () => {
    assert.equal(isTrackingParameter('UTM_Source'), true);
    assert.equal(isTrackingParameter('utm%5Fcampaign'), true);
    assert.equal(isTrackingParameter('utmost'), false);
    assert.equal(isTrackingParameter('ref'), false);
  });

  it('leaves no ? when the query is empty or held only tracking parameters', () => {
    assert.equal(normalizeUrl('https://example.com/a?'), 'https://example.com/a');
    assert.equal(normalizeUrl('https://example.com/a?utm_source=x&utm_medium=y'), 'https://example.com/a');
  });

  it('keeps the encoding of the remaining parameters byte for byte', () => {
    assert.equal(normalizeUrl('https://example.com/s?q=a+b&r=%20~&utm_term=x'), 'https://example.com/s?q=a+b&r=%20~');
  });

  it('percent-encodes as the WHATWG parser does, and no more', () => {
    assert.equal(normalizeUrl('https://example.com/a b/café'), 'https://example.com/a%20b/caf%C3%A9');
    assert.equal(normalizeUrl('https://example.com/%7e/%7E'), 'https://example.com/%7e/%7E');
  });

  it('is idempotent', () => {
    const once = normalizeUrl('HTTP://Ex.com:80/a/./b/../c d?utm_x=1&k=v#f') as string;
    assert.equal(once, 'http://ex.com/a/c%20d?k=v');
    assert.equal(normalizeUrl(once), once);
  });
});

describe('sameSite', () => {
  it('is true for the same scheme, host and port, spelled differently', () => {
    assert.equal(sameSite('https://Example.com:443/a', 'https://example.com/b#x'), true);
  });

  it('is false across schemes or ports', () => {
    assert.equal(sameSite('http://example.com/', 'https://example.com/'), false);
    assert.equal(sameSite('https://example.com/', 'https://example.com:8443/'), false);
  });

  it('treats www. as another site unless asked not to', () => {
    assert.equal(sameSite('https://www.example.com/', 'https://example.com/'), false);
    assert.equal(sameSite('https://www.example.com/', 'https://example.com/', { ignoreWww: true }), true);
    assert.equal(sameSite('https://blog.example.com/', 'https://example.com/', { ignoreWww: true }), false);
  });

  it('is false when either side is not an http(s) URL', () => {
    assert.equal(sameSite('mailto:a@example.com', 'https://example.com/'), false);
    assert.equal(sameSite('/relative', '/relative'), false);
  });
});
