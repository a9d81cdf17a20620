import type { RulePackInput } from '@loupe/contract';

type RuleInput = RulePackInput['rules'][number];

/** The three example rules of audit-checks.md §3.3, verbatim: tests and the benchmark run them. */
export const exampleRules: RuleInput[] = [
  {
    id: 'content/placeholder-copy',
    title: 'Placeholder copy left on a live page',
    category: 'content',
    severity: 'warning',
    scope: { include: ['**'], exclude: ['/styleguide/**', '/docs/examples/**'], indexableOnly: true },
    when: {
      all: [
        { type: 'metric', metric: 'wordCount', cmp: { op: 'gte', value: 20 } },
        {
          any: [
            {
              type: 'text',
              source: 'visible',
              str: { matches: '\\b(lorem ipsum|dolor sit amet|TODO:)|\\[insert [^\\]]+\\]' },
              label: 'placeholder text in body',
            },
            {
              type: 'selector',
              selector: 'head > title',
              test: { op: 'text', str: { matches: '^(untitled|new page|page title)$' } },
              label: 'default <title>',
            },
          ],
        },
      ],
    },
    message: '{{labels}} on {{path}}: \u201c{{match}}\u201d',
    help: { why: 'Template text is indexed and seen by visitors.', fix: 'Replace it with real copy or unpublish the page.' },
  },
  {
    id: 'structured-data/price-without-offer',
    title: 'Product page shows a price but its JSON-LD has no offers',
    category: 'structured-data',
    severity: 'warning',
    scope: { include: ['/products/*', '/shop/**/p/*'], indexableOnly: true },
    when: {
      all: [
        { type: 'selector', selector: '[itemprop=price], .product-price', test: { op: 'count', cmp: { op: 'gte', value: 1 } } },
        {
          type: 'selector',
          selector: "script[type='application/ld+json']",
          test: { op: 'text', str: { matches: '"offers"\\s*:' }, quantifier: 'none' },
        },
      ],
    },
    message: '{{count}} price element(s) on {{path}}, but no JSON-LD block declares "offers"',
    help: {
      why: 'Google needs offers.price to show price rich results.',
      fix: 'Add an Offer with price and priceCurrency to the Product JSON-LD.',
    },
  },
  {
    id: 'security/private-page-exposed',
    title: 'Account page is publicly cacheable or indexable',
    category: 'security',
    severity: 'error',
    weight: 0.6,
    scope: { include: ['/account/**', '/checkout/**'], statuses: ['any'] },
    when: {
      all: [
        { type: 'status', class: ['2xx'] },
        {
          any: [
            {
              not: { type: 'header', name: 'cache-control', test: { op: 'value', str: { matches: '\\b(no-store|private)\\b' } } },
              label: 'Cache-Control lacks private/no-store',
            },
            {
              not: {
                any: [
                  {
                    type: 'selector',
                    selector: "meta[name='robots' i]",
                    test: { op: 'attr', name: 'content', str: { contains: 'noindex' } },
                  },
                  { type: 'header', name: 'x-robots-tag', test: { op: 'value', str: { contains: 'noindex' } } },
                ],
              },
              label: 'no noindex in meta or X-Robots-Tag',
            },
          ],
        },
      ],
    },
    message: '{{path}} is a private page but has: {{labels}}',
  },
];
