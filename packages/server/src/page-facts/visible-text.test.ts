import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
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
  it('hashes the lower-cased words joined by spaces, and keeps the words as written up to the cap', () => {
    const text = new VisibleText();
    const words = feed(text);
    const summary = text.finish();
    assert.equal(summary.wordCount, words.length);
    assert.equal(
      summary.textHash,
      createHash('sha256')
        .update(words.map((word) => word.toLowerCase()).join(' '))
        .digest('hex'),
    );
    assert.equal(summary.text, words.join(' ').slice(0, KEPT_TEXT_CHARS));
    // The SimHash of this text before its words were handled in batches.
    assert.equal(summary.simhash, SIMHASH);
  });
});

const SIMHASH = '981bc30b887160c5';
