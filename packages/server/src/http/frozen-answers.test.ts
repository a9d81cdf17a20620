import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deepFreeze, frozenAnswerJson } from './frozen-answers.ts';

describe('frozen answers', () => {
  it('serialises a frozen answer once, and the same JSON each time', () => {
    const answer = deepFreeze([{ url: 'https://shop.example/a', snippet: 'a <mark>lamp</mark>', score: 0.5 }]);
    const first = frozenAnswerJson(answer);
    assert.equal(first, JSON.stringify(answer));
    assert.equal(frozenAnswerJson(answer), first);
  });

  it('leaves an answer that may change, and anything but an object, to be serialised as usual', () => {
    assert.equal(frozenAnswerJson([{ url: 'x' }]), undefined);
    assert.equal(frozenAnswerJson(Object.freeze('text')), undefined);
    assert.equal(frozenAnswerJson(null), undefined);
  });

  it('freezes every object and array within', () => {
    const answer = deepFreeze({ items: [{ tags: ['a'] }], next: null });
    assert.ok(Object.isFrozen(answer) && Object.isFrozen(answer.items) && Object.isFrozen(answer.items[0]) && Object.isFrozen(answer.items[0].tags));
  });
});
