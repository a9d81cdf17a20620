import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { TextDigest } from './text-digest.ts';
import { KEPT_TEXT_CHARS, VisibleText } from './visible-text.ts';

/** 30,000 words, some split over two pieces, some Greek (whose final sigma depends on its neighbours). */
function feed(text: VisibleText): string[] {
  const words: string[] = [];
  for (let i = 0; i < 30_000; i++) {
    const word = i % 5 === 0 ? `ΟΔΟΣ${i}Σ` : `Wörd${i % 113}`;
    words.push(word);
    if (i % 3 === 0) {
      text.append(word.slice(0, 2));
      text.append(`${word.slice(2)}\u00a0`);
    } else {
      text.append(word);
      text.boundary();
    }
  }
  return words;
}

describe('VisibleText', () => {
  it('counts the words and keeps them as written up to the cap, knowing the length of the whole', () => {
    const text = new VisibleText();
    const words = feed(text);
    assert.equal(text.length, words.join(' ').length);
    assert.ok(text.length > KEPT_TEXT_CHARS);
    assert.deepEqual(text.finish(), { wordCount: words.length, text: words.join(' ').slice(0, KEPT_TEXT_CHARS) });
  });
  it('is as long as its text, from the first word on', () => {
    const text = new VisibleText();
    assert.equal(text.length, 0);
    text.append('  one');
    assert.equal(text.length, 3);
    text.append('two ');
    assert.equal(text.length, 6);
    text.boundary();
    text.append('three');
    assert.equal(text.length, 12);
    assert.equal(text.finish().text, 'onetwo three');
  });
});

describe('TextDigest, given the batches of a VisibleText', () => {
  it('hashes the lower-cased words joined by spaces, and counts them batch by batch', () => {
    const text = new VisibleText();
    const digest = new TextDigest();
    let counted = 0;
    text.listen((batch, count) => {
      digest.add(batch);
      counted += count;
      assert.equal(count, batch.split(' ').length);
    });
    const words = feed(text);
    text.finish();
    const summary = digest.finish();
    assert.equal(counted, words.length);
    assert.equal(
      summary.textHash,
      createHash('sha256')
        .update(words.map((word) => word.toLowerCase()).join(' '))
        .digest('hex'),
    );
    // The SimHash of this text before its words were handled in batches.
    assert.equal(summary.simhash, SIMHASH);
  });
});

const SIMHASH = '981bc30b887160c5';
