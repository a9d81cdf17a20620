import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { negotiateFormat } from './format-negotiation.ts';

describe('format=auto negotiation', () => {
  it('picks avif for a browser that lists it', () => {
    assert.equal(negotiateFormat('image/avif,image/webp,image/apng,image/*,*/*;q=0.8', false), 'avif');
  });
  it('prefers jxl over avif and webp when all are listed', () => {
    assert.equal(negotiateFormat('image/webp,image/avif,image/jxl', false), 'jxl');
  });
  it('picks webp when it is the only modern format listed', () => {
    assert.equal(negotiateFormat('image/webp,*/*', false), 'webp');
  });
  it('gives jpeg for */*', () => {
    assert.equal(negotiateFormat('*/*', false), 'jpeg');
  });
  it('gives jpeg without an Accept header', () => {
    assert.equal(negotiateFormat(undefined, false), 'jpeg');
  });
  it('gives png for */* when the picture needs transparency', () => {
    assert.equal(negotiateFormat('*/*', true), 'png');
  });
  it('ignores a format refused with q=0', () => {
    assert.equal(negotiateFormat('image/avif;q=0, image/webp', false), 'webp');
  });
  it('reads types case-insensitively, with spaces', () => {
    assert.equal(negotiateFormat(' Image/AVIF ; q=0.9 ', false), 'avif');
  });
});
