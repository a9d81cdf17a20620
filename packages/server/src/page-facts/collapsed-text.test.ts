import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CollapsedText, isJsSpace } from './collapsed-text.ts';

describe('CollapsedText', () => {
  it("splits words where JavaScript's \\s does, for every UTF-16 unit", () => {
    for (let unit = 0; unit <= 0xffff; unit++) {
      assert.equal(isJsSpace(unit), /\s/.test(String.fromCharCode(unit)), `U+${unit.toString(16).padStart(4, '0')}`);
    }
  });

  it('collapses runs of any whitespace across pieces, counting code points past the cap', () => {
    const text = new CollapsedText(6);
    for (const piece of ['  A', ' &', '\u00a0B\u2003\u2003', '😀c', '', ' \n']) text.append(piece);
    text.space();
    text.append('d');
    assert.equal(text.text, 'A & B ');
    assert.equal(text.length, 10);
  });
});
