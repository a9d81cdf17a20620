import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RulePack } from '@loupe/contract';
import type { CompiledRule } from './compiled-rule.ts';
import { exampleRules } from './example-rules.ts';
import { htmlSubject } from './html-subject.ts';
import { evaluateRule } from './rule-evaluator.ts';
import { compileRulePack } from './rule-pack-compiler.ts';

const [placeholder, priceWithoutOffer, privatePage] = compileRulePack(
  RulePack.parse({ schema: 'loupe.rules/v1', name: 'examples', rules: exampleRules }),
).rules as [CompiledRule, CompiledRule, CompiledRule];

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
const html = (title: string, body: string, head = '') => `<html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

describe('the example rules of audit-checks.md §3.3', () => {
  describe('content/placeholder-copy', () => {
    it('fires on lorem ipsum in the body, naming the label and the match', () => {
      const page = htmlSubject({
        url: 'https://shop.test/about',
        html: html('About us', `<p>${words(30)} Lorem ipsum dolor sit amet.</p>`),
      });
      const result = evaluateRule(placeholder, page);
      assert.equal(result.outcome, 'fired');
      assert.equal(result.message, 'placeholder text in body on /about: \u201cLorem ipsum\u201d');
      assert.deepEqual(result.evidence?.samples.slice(0, 2), ['Lorem ipsum', 'dolor sit amet']);
    });

    it('fires on a default title, and on an [insert …] marker', () => {
      const untitled = htmlSubject({ url: 'https://shop.test/new', html: html('Untitled', `<p>${words(30)}</p>`) });
      assert.equal(evaluateRule(placeholder, untitled).message, 'default <title> on /new: \u201cUntitled\u201d');
      const marker = htmlSubject({ url: 'https://shop.test/team', html: html('Team', `<p>${words(25)} [insert bio here]</p>`) });
      assert.equal(evaluateRule(placeholder, marker).outcome, 'fired');
    });

    it('passes real copy; stays out of short pages, the style guide and non-indexable pages', () => {
      assert.equal(
        evaluateRule(placeholder, htmlSubject({ url: 'https://shop.test/a', html: html('A', `<p>${words(40)}</p>`) })).outcome,
        'passed',
      );
      const short = htmlSubject({ url: 'https://shop.test/a', html: html('A', '<p>Lorem ipsum</p>') });
      assert.equal(evaluateRule(placeholder, short).outcome, 'passed');
      const guide = htmlSubject({ url: 'https://shop.test/styleguide/type', html: html('Type', `<p>${words(30)} lorem ipsum</p>`) });
      assert.equal(evaluateRule(placeholder, guide).outcome, 'out-of-scope');
      const hidden = htmlSubject({ url: 'https://shop.test/a', html: html('A', `<p>${words(30)} lorem ipsum</p>`), indexable: false });
      assert.equal(evaluateRule(placeholder, hidden).outcome, 'out-of-scope');
    });
  });

  describe('structured-data/price-without-offer', () => {
    const product = (jsonLd: string) =>
      htmlSubject({
        url: 'https://shop.test/products/red-shoe',
        html: html('Red shoe', '<span itemprop="price">49</span><div class="product-price">49 EUR</div>', jsonLd),
      });

    it('fires on a product page with prices and no JSON-LD offers, counting the price elements', () => {
      const result = evaluateRule(
        priceWithoutOffer,
        product('<script type="application/ld+json">{"@type": "Product", "name": "Red shoe"}</script>'),
      );
      assert.equal(result.outcome, 'fired');
      assert.equal(result.message, '2 price element(s) on /products/red-shoe, but no JSON-LD block declares "offers"');
      assert.equal(evaluateRule(priceWithoutOffer, product('')).outcome, 'fired');
    });

    it('passes when a JSON-LD block declares offers', () => {
      const withOffer = product('<script type="application/ld+json">{"@type": "Product", "offers" : {"price": 49}}</script>');
      assert.equal(evaluateRule(priceWithoutOffer, withOffer).outcome, 'passed');
    });

    it('covers /shop/**/p/* and stays out of other paths', () => {
      const page = (url: string) => htmlSubject({ url, html: html('P', '<span itemprop="price">1</span>') });
      assert.equal(evaluateRule(priceWithoutOffer, page('https://shop.test/shop/men/shoes/p/1')).outcome, 'fired');
      assert.equal(evaluateRule(priceWithoutOffer, page('https://shop.test/products/a/b')).outcome, 'out-of-scope');
      assert.equal(evaluateRule(priceWithoutOffer, page('https://shop.test/blog/p')).outcome, 'out-of-scope');
    });
  });

  describe('security/private-page-exposed', () => {
    const account = (headers: Record<string, string>, head = '', status = 200) =>
      htmlSubject({ url: 'https://shop.test/account/orders', status, headers, html: html('Orders', '<p>Your orders</p>', head) });

    it('fires on a cacheable, indexable account page, listing both problems', () => {
      const result = evaluateRule(privatePage, account({ 'cache-control': 'public, max-age=600' }));
      assert.equal(result.outcome, 'fired');
      assert.equal(
        result.message,
        '/account/orders is a private page but has: Cache-Control lacks private/no-store, no noindex in meta or X-Robots-Tag',
      );
      assert.ok(result.evidence?.samples.includes('cache-control: public, max-age=600'));
    });

    it('names only the problem left', () => {
      const noindexed = account({ 'cache-control': 'max-age=600' }, '<meta name="ROBOTS" content="noindex, nofollow">');
      assert.equal(
        evaluateRule(privatePage, noindexed).message,
        '/account/orders is a private page but has: Cache-Control lacks private/no-store',
      );
      const uncached = account({ 'cache-control': 'private, no-store' });
      assert.equal(
        evaluateRule(privatePage, uncached).message,
        '/account/orders is a private page but has: no noindex in meta or X-Robots-Tag',
      );
    });

    it('passes a private, noindexed page; a redirect is in scope but does not fire', () => {
      assert.equal(evaluateRule(privatePage, account({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex' })).outcome, 'passed');
      assert.equal(evaluateRule(privatePage, account({ location: '/login' }, '', 302)).outcome, 'passed');
    });
  });
});
