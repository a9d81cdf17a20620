import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RulePackInput } from '@loupe/contract';
import { MAX_INSTANCES } from '../audit/finding-instances.ts';
import type { CompiledRule } from './compiled-rule.ts';
import { exampleRules } from './example-rules.ts';
import { evaluateRule } from './rule-evaluator.ts';
import type { RuleSubject } from './rule-subject.ts';
import { compiledRule, evaluate, outcome, subject } from './test-rules.ts';

type When = RulePackInput['rules'][number]['when'];

const TRUE: When = { type: 'status', class: ['2xx'] };
const FALSE: When = { type: 'status', class: ['5xx'] };
const UNKNOWN: When = { type: 'metric', metric: 'ttfbMs', cmp: { op: 'gt', value: 0 } };

const page = (body: string, head = '<title>Intro</title>') => subject({ html: `<html><head>${head}</head><body>${body}</body></html>` });

describe('rule evaluator', () => {
  describe('metric conditions', () => {
    const metric = (op: string, value: number | [number, number], wordCount = 10) =>
      outcome({ type: 'metric', metric: 'wordCount', cmp: { op, value } as never }, subject({ metrics: { wordCount } }));

    it('compares with lt, lte, gt, gte, eq and neq', () => {
      assert.equal(metric('lt', 11), 'fired');
      assert.equal(metric('lt', 10), 'passed');
      assert.equal(metric('lte', 10), 'fired');
      assert.equal(metric('lte', 9), 'passed');
      assert.equal(metric('gt', 9), 'fired');
      assert.equal(metric('gt', 10), 'passed');
      assert.equal(metric('gte', 10), 'fired');
      assert.equal(metric('gte', 11), 'passed');
      assert.equal(metric('eq', 10), 'fired');
      assert.equal(metric('eq', 11), 'passed');
      assert.equal(metric('neq', 11), 'fired');
      assert.equal(metric('neq', 10), 'passed');
    });

    it('between includes both ends; outside is its complement', () => {
      assert.equal(metric('between', [10, 20]), 'fired');
      assert.equal(metric('between', [0, 10]), 'fired');
      assert.equal(metric('between', [11, 20]), 'passed');
      assert.equal(metric('outside', [10, 20]), 'passed');
      assert.equal(metric('outside', [11, 20]), 'fired');
      assert.equal(metric('outside', [0, 9]), 'fired');
    });

    it('is not applicable when the crawl did not measure the metric', () => {
      assert.equal(outcome({ type: 'metric', metric: 'inlinks', cmp: { op: 'gte', value: 0 } }), 'not-applicable');
    });
  });

  describe('status conditions', () => {
    it('matches listed codes and classes, either one sufficing', () => {
      const notFound = subject({ status: 404 });
      assert.equal(outcome({ type: 'status', in: [404, 410] }, notFound, { scope: { statuses: ['any'] } }), 'fired');
      assert.equal(outcome({ type: 'status', in: [410] }, notFound, { scope: { statuses: ['any'] } }), 'passed');
      assert.equal(outcome({ type: 'status', class: ['4xx'] }, notFound, { scope: { statuses: ['any'] } }), 'fired');
      assert.equal(outcome({ type: 'status', in: [500], class: ['4xx'] }, notFound, { scope: { statuses: ['any'] } }), 'fired');
    });

    it('puts a URL that got no answer in the failed class', () => {
      const failed = subject({ status: null, html: null, visibleText: null, title: null, contentType: null, headers: {} });
      assert.equal(outcome({ type: 'status', class: ['failed'] }, failed, { scope: { statuses: ['failed'] } }), 'fired');
      assert.equal(outcome({ type: 'status', class: ['5xx'] }, failed, { scope: { statuses: ['failed'] } }), 'passed');
    });
  });

  describe('header conditions', () => {
    const headers = { 'content-type': 'text/html', 'cache-control': 'public, max-age=60', vary: 'Accept, Cookie' };
    const on = subject({ headers });

    it('tests presence and absence, the name case-insensitively', () => {
      assert.equal(outcome({ type: 'header', name: 'Cache-Control', test: { op: 'present' } }, on), 'fired');
      assert.equal(outcome({ type: 'header', name: 'x-robots-tag', test: { op: 'present' } }, on), 'passed');
      assert.equal(outcome({ type: 'header', name: 'X-Robots-Tag', test: { op: 'absent' } }, on), 'fired');
    });

    it('tests the value (repeated headers joined with ", "), case-insensitively unless told', () => {
      assert.equal(outcome({ type: 'header', name: 'vary', test: { op: 'value', str: { equals: 'accept, cookie' } } }, on), 'fired');
      assert.equal(
        outcome({ type: 'header', name: 'vary', test: { op: 'value', str: { equals: 'accept, cookie', caseSensitive: true } } }, on),
        'passed',
      );
      assert.equal(
        outcome({ type: 'header', name: 'cache-control', test: { op: 'value', str: { matches: 'max-age=\\d+' } } }, on),
        'fired',
      );
      assert.equal(outcome({ type: 'header', name: 'pragma', test: { op: 'value', str: { contains: 'x' } } }, on), 'passed');
    });
  });

  describe('text conditions', () => {
    it('reads the visible text by default, with equals, contains and matches', () => {
      assert.equal(outcome({ type: 'text', str: { contains: 'hello' } }), 'fired');
      assert.equal(outcome({ type: 'text', str: { contains: 'hello', caseSensitive: true } }), 'passed');
      assert.equal(outcome({ type: 'text', str: { equals: 'intro hello there.' } }), 'fired');
      assert.equal(outcome({ type: 'text', str: { equals: 'Intro' } }), 'passed');
      assert.equal(outcome({ type: 'text', str: { matches: '^intro\\b' } }), 'fired');
      assert.equal(outcome({ type: 'text', str: { matches: '^intro\\b', caseSensitive: true } }), 'passed');
    });

    it('reads the HTML, the title, the URL and the decoded path', () => {
      const on = subject({ url: 'https://example.test/caf%C3%A9/menu?lang=fr' });
      assert.equal(outcome({ type: 'text', source: 'html', str: { contains: '<h1>' } }, on), 'fired');
      assert.equal(outcome({ type: 'text', source: 'title', str: { equals: 'intro' } }, on), 'fired');
      assert.equal(outcome({ type: 'text', source: 'url', str: { contains: '?lang=fr' } }, on), 'fired');
      assert.equal(outcome({ type: 'text', source: 'path', str: { equals: '/café/menu' } }, on), 'fired');
      assert.equal(outcome({ type: 'text', source: 'path', str: { contains: 'lang' } }, on), 'passed');
    });

    it('sees an HTML page without a title as having the empty title, and a non-HTML answer as having none', () => {
      const untitled = subject({ title: null });
      assert.equal(outcome({ type: 'text', source: 'title', str: { equals: '' } }, untitled), 'fired');
      const pdf = subject({ html: null, visibleText: null, title: null, contentType: 'application/pdf' });
      const anyType = { scope: { contentTypes: ['*/*'] } };
      assert.equal(outcome({ type: 'text', source: 'title', str: { equals: '' } }, pdf, anyType), 'not-applicable');
      assert.equal(outcome({ type: 'text', str: { contains: 'a' } }, pdf, anyType), 'not-applicable');
      assert.equal(outcome({ type: 'text', source: 'url', str: { contains: 'docs' } }, pdf, anyType), 'fired');
    });

    it('looks at the first MiB of a text only', () => {
      const long = subject({ visibleText: `${'a'.repeat(1024 * 1024)}needle` });
      assert.equal(outcome({ type: 'text', str: { contains: 'needle' } }, long), 'passed');
      assert.equal(outcome({ type: 'text', str: { contains: 'needle' } }, subject({ visibleText: `${'a'.repeat(1000)}needle` })), 'fired');
    });
  });

  describe('selector conditions', () => {
    const list = page(
      '<ul><li class="x">One</li><li class="x">Two  \n words</li><li>Three</li></ul><img src="/a.png" alt=""><img src="/b.png">',
    );

    it('tests exists, absent and count', () => {
      assert.equal(outcome({ type: 'selector', selector: 'li.x', test: { op: 'exists' } }, list), 'fired');
      assert.equal(outcome({ type: 'selector', selector: 'table', test: { op: 'exists' } }, list), 'passed');
      assert.equal(outcome({ type: 'selector', selector: 'table', test: { op: 'absent' } }, list), 'fired');
      assert.equal(outcome({ type: 'selector', selector: 'li', test: { op: 'absent' } }, list), 'passed');
      assert.equal(outcome({ type: 'selector', selector: 'li', test: { op: 'count', cmp: { op: 'eq', value: 3 } } }, list), 'fired');
      assert.equal(outcome({ type: 'selector', selector: 'li', test: { op: 'count', cmp: { op: 'gt', value: 3 } } }, list), 'passed');
    });

    it('tests element text, whitespace collapsed, over any, all or none of the elements', () => {
      const text = (quantifier: 'any' | 'all' | 'none', str: object, selector = 'li') =>
        outcome({ type: 'selector', selector, test: { op: 'text', str, quantifier } }, list);
      assert.equal(text('any', { equals: 'two words' }), 'fired');
      assert.equal(text('any', { equals: 'four' }), 'passed');
      assert.equal(text('all', { matches: '^(one|two words|three)$' }), 'fired');
      assert.equal(text('all', { matches: '^t' }), 'passed');
      assert.equal(text('none', { contains: 'four' }), 'fired');
      assert.equal(text('none', { contains: 'one' }), 'passed');
    });

    it('with no element matched: any and all are false, none is true', () => {
      const text = (quantifier: 'any' | 'all' | 'none') =>
        outcome({ type: 'selector', selector: 'table', test: { op: 'text', str: { contains: 'x' }, quantifier } }, list);
      assert.equal(text('any'), 'passed');
      assert.equal(text('all'), 'passed');
      assert.equal(text('none'), 'fired');
    });

    it('tests text length', () => {
      const length = (quantifier: 'any' | 'all' | 'none', cmp: object) =>
        outcome({ type: 'selector', selector: 'li', test: { op: 'textLength', cmp, quantifier } as never }, list);
      assert.equal(length('any', { op: 'eq', value: 9 }), 'fired');
      assert.equal(length('all', { op: 'lte', value: 9 }), 'fired');
      assert.equal(length('all', { op: 'lt', value: 5 }), 'passed');
      assert.equal(length('none', { op: 'gt', value: 9 }), 'fired');
    });

    it('tests attributes: present without a string test, the value with one; names case-insensitively', () => {
      const attr = (test: object, quantifier: 'any' | 'all' | 'none' = 'any') =>
        outcome({ type: 'selector', selector: 'img', test: { op: 'attr', quantifier, ...test } as never }, list);
      assert.equal(attr({ name: 'ALT' }), 'fired');
      assert.equal(attr({ name: 'alt' }, 'all'), 'passed');
      assert.equal(attr({ name: 'alt' }, 'none'), 'passed');
      assert.equal(attr({ name: 'src', str: { matches: '\\.png$' } }, 'all'), 'fired');
      assert.equal(attr({ name: 'src', str: { equals: '/b.png' } }), 'fired');
      assert.equal(attr({ name: 'src', str: { equals: '/c.png' } }), 'passed');
    });

    it('is not applicable on the rendered DOM of a page the crawl did not render, or on an answer without HTML', () => {
      assert.equal(outcome({ type: 'selector', selector: 'li', dom: 'rendered', test: { op: 'exists' } }, list), 'not-applicable');
      const failedRender = { ...list, renderedHtml: null };
      assert.equal(outcome({ type: 'selector', selector: 'li', dom: 'rendered', test: { op: 'absent' } }, failedRender), 'not-applicable');
      const noHtml = subject({ html: null, visibleText: null, title: null });
      assert.equal(outcome({ type: 'selector', selector: 'li', test: { op: 'absent' } }, noHtml), 'not-applicable');
    });

    it('reads the rendered DOM for dom: rendered and the raw HTML otherwise, on the same page', () => {
      // An app shell whose list a script filled in.
      const shell = page('<ul id="app"></ul>');
      const rendered = {
        ...shell,
        renderedHtml: '<html><head></head><body><ul id="app"><li>Sencha</li><li>Matcha</li></ul></body></html>',
      };
      const items = (dom: 'raw' | 'rendered') => evaluate({ type: 'selector', selector: 'li', dom, test: { op: 'exists' } }, rendered);
      assert.equal(items('raw').outcome, 'passed');
      assert.deepEqual([items('rendered').outcome, items('rendered').evidence?.total], ['fired', 2]);
      const onlyAfterScripts = evaluate(
        {
          all: [
            { type: 'selector', selector: '#app li', test: { op: 'absent' } },
            {
              type: 'selector',
              selector: '#app li',
              dom: 'rendered',
              test: { op: 'text', quantifier: 'any', str: { contains: 'matcha' } },
            },
          ],
        },
        rendered,
      );
      assert.equal(onlyAfterScripts.outcome, 'fired');
    });

    it('parses a page once for all the rules run on it', () => {
      const on = page('<p>x</p>');
      const first = compiledRule({ when: { type: 'selector', selector: 'p', test: { op: 'exists' } } });
      const second = compiledRule({ when: { type: 'selector', selector: 'div', test: { op: 'absent' } } });
      assert.equal(evaluateRule(first, on).outcome, 'fired');
      // Taking the HTML away from the same subject object changes nothing: the document is parsed already.
      (on as { html: string | null }).html = null;
      assert.equal(evaluateRule(second, on).outcome, 'fired');
    });
  });

  describe('all, any and not with unknown conditions', () => {
    it('all: any false child makes it false, else any unknown child unknown', () => {
      assert.equal(outcome({ all: [TRUE, TRUE] }), 'fired');
      assert.equal(outcome({ all: [TRUE, FALSE] }), 'passed');
      assert.equal(outcome({ all: [UNKNOWN, FALSE] }), 'passed');
      assert.equal(outcome({ all: [TRUE, UNKNOWN] }), 'not-applicable');
    });

    it('any: any true child makes it true, else any unknown child unknown', () => {
      assert.equal(outcome({ any: [FALSE, TRUE] }), 'fired');
      assert.equal(outcome({ any: [UNKNOWN, TRUE] }), 'fired');
      assert.equal(outcome({ any: [FALSE, FALSE] }), 'passed');
      assert.equal(outcome({ any: [FALSE, UNKNOWN] }), 'not-applicable');
    });

    it('not: reverses true and false, keeps unknown', () => {
      assert.equal(outcome({ not: FALSE }), 'fired');
      assert.equal(outcome({ not: TRUE }), 'passed');
      assert.equal(outcome({ not: UNKNOWN }), 'not-applicable');
      assert.equal(outcome({ not: { all: [TRUE, UNKNOWN] } }), 'not-applicable');
      assert.equal(outcome({ not: { any: [FALSE, { not: TRUE }] } }), 'fired');
    });
  });

  describe('messages', () => {
    it('fills url, path, status, rule.id, value and named metrics', () => {
      const on = subject({ url: 'https://example.test/a%20b?x=1', metrics: { wordCount: 12, responseMs: 250.5 } });
      const result = evaluate({ type: 'metric', metric: 'wordCount', cmp: { op: 'lt', value: 50 } }, on, {
        message: '{{url}} | {{path}} | {{status}} | {{rule.id}} | {{value}} | {{metric.responseMs}} | [{{metric.inlinks}}]',
      });
      assert.equal(result.message, 'https://example.test/a%20b?x=1 | /a b | 200 | content/test-rule | 12 | 250.5 | []');
    });

    it('fills count from the first true selector condition and match from the first match', () => {
      const on = page('<img src="/1.png"><img src="/2.png"><p>Price: 12 EUR</p>');
      const fired = evaluate(
        {
          any: [
            { type: 'selector', selector: 'table', test: { op: 'exists' } },
            {
              all: [
                { type: 'selector', selector: 'img', test: { op: 'count', cmp: { op: 'gte', value: 2 } } },
                { type: 'text', source: 'html', str: { matches: '\\d+ EUR' } },
              ],
            },
          ],
        },
        on,
        { message: 'count={{count}} match=[{{match}}]' },
      );
      assert.equal(fired.message, 'count=2 match=[12 EUR]');
    });

    it('lists the labels of the true nodes only, in the order written', () => {
      const result = evaluate(
        {
          any: [
            { ...FALSE, label: 'server error' },
            { ...TRUE, label: 'ok status' },
            { not: FALSE, label: 'not an error' },
            { not: { ...TRUE, label: 'hidden' }, label: 'never true' },
          ],
        } as When,
        subject(),
        { message: '{{labels}}' },
      );
      assert.equal(result.message, 'ok status, not an error');
    });

    it('says failed for the status of a URL without an answer', () => {
      const failed = subject({ status: null, contentType: null, html: null, visibleText: null, title: null });
      const result = evaluate({ type: 'status', class: ['failed'] }, failed, { scope: { statuses: ['failed'] }, message: '{{status}}' });
      assert.equal(result.message, 'failed');
    });
  });

  describe('evidence', () => {
    it('keeps every instance and the total', () => {
      const images = Array.from({ length: 40 }, (_, i) => `<img src="/${i}.png">`).join('');
      const result = evaluate({ type: 'selector', selector: 'img', test: { op: 'exists' } }, page(images));
      assert.deepEqual(result.evidence, {
        samples: Array.from({ length: 40 }, (_, i) => `<img src="/${i}.png">`),
        total: 40,
      });
    });

    it('keeps at most MAX_INSTANCES, with the true total', () => {
      const images = Array.from({ length: MAX_INSTANCES + 1 }, (_, i) => `<img src="/${i}.png">`).join('');
      const result = evaluate({ type: 'selector', selector: 'img', test: { op: 'exists' } }, page(images));
      assert.deepEqual([result.evidence?.samples.length, result.evidence?.total], [MAX_INSTANCES, MAX_INSTANCES + 1]);
    });

    it('samples the substrings a text expression matched', () => {
      const result = evaluate(
        { type: 'text', str: { matches: 'todo:?\\s\\w+' } },
        subject({ visibleText: 'TODO fix. todo: write. Todo: ship. todo more. TODO last' }),
      );
      assert.deepEqual(result.evidence, { samples: ['TODO fix', 'todo: write', 'Todo: ship', 'todo more', 'TODO last'], total: 5 });
    });

    it('shows what a negated condition saw, and puts status and metric gates after what was found', () => {
      const on = subject({ headers: { 'cache-control': 'public, max-age=600' } });
      const result = evaluate(
        {
          all: [TRUE, { not: { type: 'header', name: 'cache-control', test: { op: 'value', str: { contains: 'private' } } } }],
        },
        on,
      );
      assert.deepEqual(result.evidence, { samples: ['cache-control: public, max-age=600', 'status 200'], total: 2 });
    });

    it('is given only when the rule fires', () => {
      assert.deepEqual(evaluate(FALSE), { outcome: 'passed' });
      assert.deepEqual(evaluate(UNKNOWN), { outcome: 'not-applicable' });
    });
  });

  describe('deciding without explaining', () => {
    const pages = [
      subject(),
      subject({
        html: '<html><head><title>Untitled</title></head><body><p>Lorem ipsum dolor sit amet.</p><img src="/a.png"><img src="/b.png" alt="b"></body></html>',
        visibleText: `Lorem ipsum dolor sit amet. ${'word '.repeat(20)}`,
        title: 'Untitled',
        metrics: { wordCount: 25 },
      }),
      subject({ url: 'https://example.test/account/orders', headers: { 'content-type': 'text/html', 'cache-control': 'public' } }),
      subject({ status: 404 }),
      subject({ status: null, contentType: null, html: null, visibleText: null, title: null, headers: {} }),
    ];
    const rules = [
      ...exampleRules,
      { id: 'content/t1', when: TRUE },
      { id: 'content/t2', when: { any: [FALSE, { type: 'selector', selector: 'img:not([alt])', test: { op: 'exists' } }] } },
      { id: 'content/t3', when: { all: [TRUE, UNKNOWN] } },
      { id: 'content/t4', when: { not: { type: 'text', str: { matches: '\\b(lorem|ipsum)\\b' } } } },
      {
        id: 'content/t5',
        when: { type: 'selector', selector: 'img', test: { op: 'attr', name: 'alt', quantifier: 'none' } },
        scope: { statuses: ['any'] },
      },
      { id: 'content/t6', when: { type: 'status', class: ['failed', '4xx'] }, scope: { statuses: ['any'] } },
    ].map(({ id, ...fields }) => compiledRule({ id, ...fields } as never));

    it('decides every rule as explaining does, and leaves message and evidence out', () => {
      const outcomes = new Set<string>();
      for (const rule of rules) {
        for (const on of pages) {
          const explained = evaluateRule(rule, on);
          const decided = evaluateRule(rule, { ...on }, { explain: false });
          assert.deepEqual(decided, { outcome: explained.outcome }, `${rule.definition.id} on ${on.url} (${on.status})`);
          if (explained.outcome === 'fired') assert.ok(explained.message !== undefined && explained.evidence, 'explaining is the default');
          outcomes.add(explained.outcome);
        }
      }
      assert.deepEqual([...outcomes].sort(), ['fired', 'not-applicable', 'out-of-scope', 'passed'], 'every outcome was compared');
    });

    it('explains a firing when asked, on the same subject after an unexplained one', () => {
      const on = pages[1] as RuleSubject;
      const rule = rules.find((r) => r.definition.id === 'content/placeholder-copy') as CompiledRule;
      assert.deepEqual(evaluateRule(rule, on, { explain: false }), { outcome: 'fired' });
      const explained = evaluateRule(rule, on, { explain: true });
      assert.equal(explained.outcome, 'fired');
      assert.match(explained.message ?? '', /placeholder text in body.*Lorem ipsum/);
    });
  });
});
