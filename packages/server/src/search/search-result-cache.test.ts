import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PreparedPage } from '../http/prepared-page.ts';
import { type SearchAnswer, type SearchQuestion, SearchResultCache, sizeOf } from './search-result-cache.ts';
import { parsedQuery as parsed } from './test-parsed-query.ts';

const BUILD = '01900000-0000-7000-8000-00000000000a';
const NEWER = '01900000-0000-7000-8000-00000000000b';

const question = (text: string, change: Partial<SearchQuestion> = {}): SearchQuestion => ({
  buildId: BUILD,
  query: parsed(text),
  offset: 0,
  limit: 10,
  ...change,
});

/** An answer of `hits` hits with snippets of `chars` characters, from `buildId`. */
function answer(buildId: string, hits = 1, chars = 10): SearchAnswer {
  const items = Array.from({ length: hits }, (_, i) => ({
    pageId: `page-${i}`,
    reportId: 'report',
    url: `https://shop.example/${i}`,
    title: null,
    snippet: 'x'.repeat(chars),
    score: hits - i,
  }));
  return { buildId, page: PreparedPage.of({ items, nextCursor: null }) };
}

/** Counts the answers it computes. */
function counted(make: () => SearchAnswer) {
  const counter = { calls: 0, answer: async () => (counter.calls++, make()) };
  return counter;
}

describe('search result cache', () => {
  it('answers a question asked again from what it kept, computing it once', async () => {
    const cache = new SearchResultCache({ maxEntries: 10, maxBytes: 1_000_000 });
    const source = counted(() => answer(BUILD));
    const first = await cache.get(question('lantern oil'), source.answer);
    const again = await cache.get(question('lantern oil'), source.answer);
    assert.equal(source.calls, 1);
    assert.deepEqual(again, first);
  });

  it('keys by the parsed query, so spacing and wordless terms ask the same', async () => {
    const cache = new SearchResultCache({ maxEntries: 10, maxBytes: 1_000_000 });
    const source = counted(() => answer(BUILD));
    await cache.get(question('lantern oil'), source.answer);
    await cache.get(question('  lantern   oil -! '), source.answer);
    assert.equal(source.calls, 1);
  });

  it('asks again for another build, window, phrase or exclusion', async () => {
    const cache = new SearchResultCache({ maxEntries: 10, maxBytes: 1_000_000 });
    const questions = [
      question('lantern oil'),
      question('lantern oil', { buildId: NEWER }),
      question('lantern oil', { offset: 10 }),
      question('lantern oil', { limit: 11 }),
      question('"lantern oil"'),
      question('lantern -oil'),
      question('lantern OR oil'),
    ];
    let calls = 0;
    for (const asked of questions) await cache.get(asked, async () => (calls++, answer(asked.buildId)));
    assert.equal(calls, questions.length);
    assert.equal(cache.size, questions.length);
  });

  it('keeps a fresh answer under the build that gave it, a newer one when a rebuild switched in between', async () => {
    const cache = new SearchResultCache({ maxEntries: 10, maxBytes: 1_000_000 });
    const source = counted(() => answer(NEWER));
    await cache.get(question('lantern'), source.answer);
    await cache.get(question('lantern', { buildId: NEWER }), source.answer);
    assert.equal(source.calls, 1);
    await cache.get(question('lantern'), source.answer);
    assert.equal(source.calls, 2);
  });

  it('computes once for concurrent misses of one question', async () => {
    const cache = new SearchResultCache({ maxEntries: 10, maxBytes: 1_000_000 });
    let release: (value: SearchAnswer) => void = () => {};
    let calls = 0;
    const slow = () => {
      calls++;
      return new Promise<SearchAnswer>((resolve) => (release = resolve));
    };
    const waiting = [cache.get(question('lantern'), slow), cache.get(question('lantern'), slow), cache.get(question('lantern'), slow)];
    release(answer(BUILD));
    const answers = await Promise.all(waiting);
    assert.equal(calls, 1);
    assert.ok(answers.every((each) => each === answers[0]));
  });

  it('keeps no failure: the next request computes again', async () => {
    const cache = new SearchResultCache({ maxEntries: 10, maxBytes: 1_000_000 });
    await assert.rejects(
      cache.get(question('lantern'), async () => {
        throw new Error('database gone');
      }),
      /database gone/,
    );
    const source = counted(() => answer(BUILD));
    await cache.get(question('lantern'), source.answer);
    assert.equal(source.calls, 1);
    assert.equal(cache.size, 1);
  });

  it('holds at most maxEntries answers, dropping the least recently used', async () => {
    const cache = new SearchResultCache({ maxEntries: 2, maxBytes: 1_000_000 });
    const source = counted(() => answer(BUILD));
    await cache.get(question('a'), source.answer);
    await cache.get(question('b'), source.answer);
    await cache.get(question('a'), source.answer);
    await cache.get(question('c'), source.answer);
    assert.equal(cache.size, 2);
    assert.equal(source.calls, 3);
    await cache.get(question('a'), source.answer);
    assert.equal(source.calls, 3, 'a was used last, so b went');
    await cache.get(question('b'), source.answer);
    assert.equal(source.calls, 4);
  });

  it('holds at most maxBytes of answers, and keeps none larger than that', async () => {
    // An answer of one hit with a 1,000-character snippet counts some 1,500 bytes: two fit in 3,500.
    const one = answer(BUILD, 1, 1_000);
    assert.ok(sizeOf(one, 'key') > 1_400 && sizeOf(one, 'key') < 1_600);
    const cache = new SearchResultCache({ maxEntries: 100, maxBytes: 3_500 });
    const source = counted(() => answer(BUILD, 1, 1_000));
    for (const word of ['a', 'b', 'c', 'd']) await cache.get(question(word), source.answer);
    assert.equal(cache.size, 2);
    const huge = counted(() => answer(BUILD, 3, 1_000));
    await cache.get(question('huge'), huge.answer);
    await cache.get(question('huge'), huge.answer);
    assert.equal(huge.calls, 2);
  });

  it('counts an answer by the bytes of its JSON, and its key', () => {
    const small = answer(BUILD, 10, 100);
    const large = answer(BUILD, 10, 300);
    // Ten snippets 200 characters longer: 2,000 bytes more.
    assert.equal(sizeOf(large, 'key') - sizeOf(small, 'key'), 2_000);
    assert.equal(sizeOf(small, 'a longer key') - sizeOf(small, 'key'), 9);
    const json = Buffer.byteLength(JSON.stringify(small.page.parsedItems()));
    assert.ok(sizeOf(small, 'key') > json && sizeOf(small, 'key') < json + 500);
  });

  it('keeps nothing with maxBytes 0, still sharing an answer being computed', async () => {
    const cache = new SearchResultCache({ maxEntries: 100, maxBytes: 0 });
    const source = counted(() => answer(BUILD));
    await Promise.all([cache.get(question('a'), source.answer), cache.get(question('a'), source.answer)]);
    assert.equal(source.calls, 1);
    await cache.get(question('a'), source.answer);
    assert.equal(source.calls, 2);
    assert.equal(cache.size, 0);
  });
});
