import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_INSTANCES, shortenInstance } from './counted-instances.ts';
import { extractPageFacts } from './page-facts.ts';

const facts = (html: string) => extractPageFacts(html, 'https://example.com/page', { 'content-type': 'text/html' });

describe('shortenInstance', () => {
  it('keeps 160 code points whole and cuts 161 to 159 and an ellipsis', () => {
    assert.equal(shortenInstance('a'.repeat(160)), 'a'.repeat(160));
    assert.equal(shortenInstance('a'.repeat(161)), `${'a'.repeat(159)}…`);
    assert.equal(shortenInstance(''), '');
  });
  it('counts code points, not UTF-16 units', () => {
    assert.equal(shortenInstance('🍵'.repeat(160)), '🍵'.repeat(160));
    assert.equal(shortenInstance('🍵'.repeat(161)), `${'🍵'.repeat(159)}…`);
  });
});

describe('instances the page facts keep', () => {
  it('counts ten thousand unnamed buttons in a page of a megabyte, describing only what findings keep', () => {
    const html = `<body>${'<button class="icon icon-close-the-dialog-window-now"></button>'.repeat(10_000)}${'x'.repeat(400_000)}</body>`;
    assert.ok(html.length > 1_000_000);
    const buttons = facts(html).accessibility.buttons;
    assert.deepEqual([buttons.count, buttons.failing.count, buttons.failing.instances.length], [10_000, 10_000, MAX_INSTANCES]);
  });

  it('keeps the first description and title whole, and every one shortened', () => {
    const long = 'word '.repeat(100).trim();
    const page = facts(
      `<head><title>${long}</title><title>Second</title><meta name="description" content="${long}"><meta name="description" content="Two"></head>`,
    );
    assert.equal(page.title?.text, long);
    assert.equal(page.description?.text, long);
    assert.deepEqual(
      page.titles.map((title) => [title.text, title.length]),
      [
        [shortenInstance(long), 499],
        ['Second', 6],
      ],
    );
    assert.deepEqual(
      page.descriptions.map((description) => [description.text, description.length]),
      [
        [shortenInstance(long), 499],
        ['Two', 3],
      ],
    );
  });

  it('keeps at most MAX_INSTANCES of each list, counting the rest', () => {
    const n = MAX_INSTANCES + 1;
    const page = facts(
      `<head>${'<meta name="description" content="d"><meta http-equiv="refresh" content="9"><title>t</title>'.repeat(n)}</head>` +
        `<body>${'<h1>h</h1><input><i id="x"></i><meta name="m">'.repeat(n)}</body>`,
    );
    assert.deepEqual([page.descriptionCount, page.descriptions.length], [n, MAX_INSTANCES]);
    assert.deepEqual([page.titleCount, page.titles.length], [n, MAX_INSTANCES]);
    assert.deepEqual([page.metaRefreshes.count, page.metaRefreshes.instances.length], [n, MAX_INSTANCES]);
    assert.deepEqual([page.h1Count, page.h1Texts.length], [n, MAX_INSTANCES]);
    assert.deepEqual([page.metaInBody.count, page.metaInBody.instances.length], [n, MAX_INSTANCES]);
    const controls = page.accessibility.controls.failing;
    assert.deepEqual([controls.count, controls.instances.length], [n, MAX_INSTANCES]);
    assert.deepEqual(page.accessibility.duplicateIds, { count: 1, instances: ['#x'] });
  });
});
