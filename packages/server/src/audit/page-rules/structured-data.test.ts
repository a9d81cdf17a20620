import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { check, compliantPage } from './test-page.ts';

function withJsonLd(...blocks: (string | object)[]) {
  const scripts = blocks.map(
    (block) => `<script type="application/ld+json">${typeof block === 'string' ? block : JSON.stringify(block)}</script>`,
  );
  return compliantPage({ head: scripts.join('') });
}

const COMPLETE_PRODUCT = {
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Sencha, 100 g',
  image: 'https://example.com/sencha.jpg',
  description: 'A grassy Japanese green tea.',
  brand: { '@type': 'Brand', name: 'Example Teas' },
  sku: 'SEN-100',
  offers: {
    '@type': 'Offer',
    price: '12.50',
    priceCurrency: 'EUR',
    availability: 'https://schema.org/InStock',
    priceValidUntil: '2030-01-01',
  },
};

describe('structured-data/invalid-jsonld', () => {
  it('fires on a block that is not JSON', () => {
    const verdict = check('structured-data/invalid-jsonld', withJsonLd(COMPLETE_PRODUCT, '{"@type": "Product", }'));
    assert.equal(verdict?.count, 1);
    assert.equal(verdict?.detail, '1 of 2 JSON-LD blocks invalid');
  });
  it('does not fire on valid blocks', () => {
    assert.equal(check('structured-data/invalid-jsonld', withJsonLd(COMPLETE_PRODUCT)), null);
  });
});

describe('structured-data/missing-required', () => {
  it('fires on a Product with neither offers, review nor aggregateRating', () => {
    const { offers: _, ...product } = COMPLETE_PRODUCT;
    assert.deepEqual(check('structured-data/missing-required', withJsonLd(product)), {
      count: 1,
      samples: ['Product: offers or review or aggregateRating'],
      detail: '1 item incomplete',
    });
  });
  it('checks nested nodes and @graph, and reads full schema.org type URLs', () => {
    const graph = {
      '@context': 'https://schema.org',
      '@graph': [
        { ...COMPLETE_PRODUCT, offers: { '@type': 'Offer', priceCurrency: 'EUR' } },
        { '@type': 'https://schema.org/Event', name: 'Tea tasting', startDate: '2030-05-01' },
      ],
    };
    assert.deepEqual(check('structured-data/missing-required', withJsonLd(graph))?.samples, [
      'Offer: price or priceSpecification',
      'Event: location',
    ]);
  });
  it('does not fire on complete items, on types it does not check, or on empty values counted as present', () => {
    assert.equal(check('structured-data/missing-required', withJsonLd(COMPLETE_PRODUCT)), null);
    assert.equal(check('structured-data/missing-required', withJsonLd({ '@type': 'Organization', name: 'Example Teas' })), null);
  });
  it('treats an empty string or list as missing', () => {
    const verdict = check(
      'structured-data/missing-required',
      withJsonLd(
        { '@type': 'FAQPage', mainEntity: [] },
        { '@type': 'VideoObject', name: ' ', thumbnailUrl: 'https://example.com/t.jpg', uploadDate: '2025-01-01' },
      ),
    );
    assert.deepEqual(verdict?.samples, ['FAQPage: mainEntity', 'VideoObject: name']);
  });
});

describe('structured-data/missing-recommended', () => {
  it('fires on an Article (or BlogPosting) without its recommended properties', () => {
    assert.deepEqual(check('structured-data/missing-recommended', withJsonLd({ '@type': 'BlogPosting', headline: 'Brewing green tea' })), {
      count: 1,
      samples: ['Article: image, datePublished, dateModified, author'],
      detail: '1 item could say more',
    });
  });
  it('does not fire on a complete Product and Offer', () => {
    assert.equal(check('structured-data/missing-recommended', withJsonLd(COMPLETE_PRODUCT)), null);
  });
});
