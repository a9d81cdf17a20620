import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage, GOOD_HEADERS, type HtmlParts } from './test-page.ts';

const HTTP_PAGE = { url: 'http://example.com/guides/brewing-tea' };

function withHeaders(changes: Record<string, string | null>, parts: HtmlParts = {}) {
  const headers: Record<string, string> = { ...GOOD_HEADERS };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  return compliantPage(parts, { headers });
}

describe('security/not-https', () => {
  it('fires on an http:// page', () => {
    assert.deepEqual(check('security/not-https', compliantPage({}, HTTP_PAGE)), { count: 1, samples: [HTTP_PAGE.url] });
  });
  it('does not fire on https', () => {
    assert.equal(check('security/not-https', compliantPage()), null);
  });
});

describe('security/mixed-content', () => {
  it('fires on an http:// image on an https page', () => {
    const page = compliantPage({ extraBody: '<img src="http://cdn.example.com/pot.jpg" alt="Pot" width="4" height="3">' });
    assert.deepEqual(check('security/mixed-content', page), { count: 1, samples: ['img[src] http://cdn.example.com/pot.jpg'] });
  });
  it('does not fire on https resources', () => {
    assert.equal(
      check('security/mixed-content', compliantPage({ extraBody: '<img src="https://cdn.example.com/pot.jpg" alt="Pot">' })),
      null,
    );
  });
});

describe('security/hsts', () => {
  it('fires without the header', () => {
    assert.equal(check('security/hsts', withHeaders({ 'strict-transport-security': null }))?.detail, 'no Strict-Transport-Security header');
  });
  it('fires one second under six months', () => {
    assert.equal(
      check('security/hsts', withHeaders({ 'strict-transport-security': 'max-age=15767999' }))?.detail,
      'max-age=15767999 (182 days)',
    );
  });
  it('does not fire at six months exactly, quoted or not', () => {
    assert.equal(check('security/hsts', withHeaders({ 'strict-transport-security': 'max-age=15768000' })), null);
    assert.equal(check('security/hsts', withHeaders({ 'strict-transport-security': 'includeSubDomains; max-age="15768000"' })), null);
  });
  it('fires on max-age 0, a missing max-age, or one that is not a number', () => {
    assert.equal(check('security/hsts', withHeaders({ 'strict-transport-security': 'max-age=0' }))?.detail, 'max-age=0 switches HSTS off');
    assert.equal(check('security/hsts', withHeaders({ 'strict-transport-security': 'includeSubDomains' }))?.detail, 'no max-age');
    assert.equal(
      check('security/hsts', withHeaders({ 'strict-transport-security': 'max-age=year' }))?.detail,
      'max-age=year is not a number',
    );
  });
  it('does not fire on an http page, where browsers ignore HSTS', () => {
    assert.equal(
      check('security/hsts', compliantPage({}, { ...HTTP_PAGE, headers: { 'content-type': 'text/html; charset=utf-8' } })),
      null,
    );
  });
});

describe('security/insecure-form', () => {
  it('fires on a form that submits to http://', () => {
    const page = compliantPage({ extraBody: '<form action="http://example.com/subscribe" method="post"></form>' });
    assert.deepEqual(check('security/insecure-form', page), { count: 1, samples: ['form action=http://example.com/subscribe'] });
  });
  it('leaves the forms of an http page to security/not-https, the one root cause', () => {
    const page = compliantPage({ extraBody: '<form action="/subscribe"></form><form></form>' }, HTTP_PAGE);
    assert.deepEqual(check('security/not-https', page), { count: 1, samples: [HTTP_PAGE.url] });
    assert.equal(check('security/insecure-form', page), null);
  });
  it('fires on an http page for a form written to submit to http://, which https would not fix', () => {
    const page = compliantPage(
      { extraBody: '<form action="/subscribe"></form><form action="HTTP://forms.example.net/join"></form>' },
      HTTP_PAGE,
    );
    assert.deepEqual(check('security/insecure-form', page), { count: 1, samples: ['form action=http://forms.example.net/join'] });
  });
  it('does not fire on forms that stay on https', () => {
    assert.equal(check('security/insecure-form', compliantPage({ extraBody: '<form action="/subscribe"></form><form></form>' })), null);
  });
});

describe('security/headers', () => {
  it('fires listing each missing protection', () => {
    const page = withHeaders({ 'content-security-policy': null, 'x-content-type-options': null });
    assert.deepEqual(check('security/headers', page), {
      count: 3,
      samples: ['Content-Security-Policy', 'X-Content-Type-Options: nosniff', 'X-Frame-Options or CSP frame-ancestors'],
      detail: 'missing: Content-Security-Policy, X-Content-Type-Options: nosniff, X-Frame-Options or CSP frame-ancestors',
    });
  });
  it('does not count frame-ancestors in a meta CSP as a framing guard', () => {
    const meta = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; frame-ancestors 'none'">`;
    const page = withHeaders({ 'content-security-policy': null }, { head: meta });
    assert.deepEqual(check('security/headers', page)?.samples, ['X-Frame-Options or CSP frame-ancestors']);
  });
  it('does not fire with a meta CSP, nosniff and X-Frame-Options', () => {
    const meta = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'">`;
    const page = withHeaders({ 'content-security-policy': null, 'x-frame-options': 'SAMEORIGIN' }, { head: meta });
    assert.equal(check('security/headers', page), null);
    assert.equal(check('security/headers', compliantPage()), null);
  });
});
