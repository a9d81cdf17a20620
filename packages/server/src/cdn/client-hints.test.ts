import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyClientHints, readClientHints } from './client-hints.ts';

const SOURCE = { width: 1000, height: 800 };

describe('readClientHints', () => {
  it('prefers Sec-CH-DPR and Sec-CH-Width over the legacy names', () => {
    assert.deepEqual(readClientHints({ 'sec-ch-dpr': '1', dpr: '3', 'sec-ch-width': '250', width: '900' }), {
      dpr: 1,
      width: 300,
      saveData: false,
    });
    assert.deepEqual(readClientHints({ dpr: '2', width: '401' }), { dpr: 2, width: 500, saveData: false });
  });

  it('rounds DPR to the nearest whole number and clamps it to 1…3', () => {
    const dpr = (value: string) => readClientHints({ 'sec-ch-dpr': value }).dpr;
    assert.deepEqual(['0.5', '1.25', '1.5', '2.625', '3', '7'].map(dpr), [1, 1, 2, 3, 3, 3]);
  });

  it('rounds Width up to a step of 100 and clamps it to 8192', () => {
    const width = (value: string) => readClientHints({ 'sec-ch-width': value }).width;
    assert.deepEqual(['1', '100', '101', '640.5', '8150', '99999'].map(width), [100, 100, 200, 700, 8192, 8192]);
  });

  it('ignores garbage, zero, negative, repeated and huge values as if they were not sent', () => {
    for (const value of ['', 'abc', '0', '-2', '1e3', '2, 3', 'Infinity', 'NaN', '0x10', '123456789', '2.']) {
      assert.deepEqual(readClientHints({ 'sec-ch-dpr': value, 'sec-ch-width': value }), { saveData: false }, value);
    }
    assert.deepEqual(readClientHints({ 'sec-ch-dpr': ['2', '3'] }), { saveData: false });
  });

  it('takes Save-Data only when it is on', () => {
    assert.equal(readClientHints({ 'save-data': 'on' }).saveData, true);
    assert.equal(readClientHints({ 'save-data': ' ON ' }).saveData, true);
    for (const value of ['off', '1', 'yes', '']) assert.equal(readClientHints({ 'save-data': value }).saveData, false);
  });
});

describe('applyClientHints', () => {
  const none = { saveData: false };

  it('multiplies a preset width by the DPR hint, and folds the DPR into pixels', () => {
    assert.deepEqual(applyClientHints({ width: 300, dpr: 3 }, {}, { dpr: 2, saveData: false }, SOURCE).transforms, { width: 600 });
    assert.deepEqual(applyClientHints({ width: 300, dpr: 2 }, {}, none, SOURCE).transforms, { width: 600 });
  });

  it('takes the Width hint in place of the preset width, keeping a box aspect and skipping DPR', () => {
    const hinted = applyClientHints({ width: 300, height: 200, fit: 'cover' }, {}, { dpr: 3, width: 600, saveData: false }, SOURCE);
    assert.deepEqual(hinted.transforms, { width: 600, height: 400, fit: 'cover' });
  });

  it('never asks for more width than the original has, and leaves a bare URL alone past it', () => {
    assert.deepEqual(applyClientHints({ width: 300 }, {}, { width: 5000, saveData: false }, SOURCE).transforms, { width: 1000 });
    assert.deepEqual(applyClientHints({}, {}, { width: 5000, saveData: false }, SOURCE).transforms, {});
    assert.deepEqual(applyClientHints({ rotate: 90 }, {}, { width: 900, saveData: false }, SOURCE).transforms, { rotate: 90 });
  });

  it('lets explicit URL parameters win and leaves them out of Vary', () => {
    const explicit = { width: 200, dpr: 1 as const, quality: 80 };
    const hinted = applyClientHints({ width: 200, dpr: 1, quality: 80 }, explicit, { dpr: 3, width: 900, saveData: true }, SOURCE);
    assert.deepEqual(hinted, { transforms: { width: 200, quality: 80 }, vary: [] });
  });

  it('varies on DPR only when something is sized, and on Width not for a height-only request', () => {
    assert.deepEqual(applyClientHints({}, {}, none, SOURCE).vary, ['Sec-CH-Width', 'Width', 'Save-Data']);
    assert.deepEqual(applyClientHints({ height: 100 }, {}, none, SOURCE).vary, ['Sec-CH-DPR', 'DPR', 'Save-Data']);
    assert.deepEqual(applyClientHints({ width: 100 }, {}, none, SOURCE).vary, ['Sec-CH-DPR', 'DPR', 'Sec-CH-Width', 'Width', 'Save-Data']);
  });

  it('lowers quality on Save-Data: at most 45, or the low perceptual target', () => {
    const save = { saveData: true };
    assert.equal(applyClientHints({ width: 100 }, {}, save, SOURCE).transforms.quality, 45);
    assert.equal(applyClientHints({ quality: 30 }, {}, save, SOURCE).transforms.quality, 30);
    assert.equal(applyClientHints({ quality: 90 }, {}, save, SOURCE).transforms.quality, 45);
    assert.deepEqual(applyClientHints({ qualityMode: 'high' }, {}, save, SOURCE).transforms, { qualityMode: 'low' });
    assert.equal(applyClientHints({ width: 100 }, { qualityMode: 'high' }, save, SOURCE).transforms.quality, undefined);
  });
});
