import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoupeError } from '@loupe/contract';
import { parseCdnQuery } from './cdn-query.ts';

const parse = (query: string) => parseCdnQuery(new URLSearchParams(query));
const fieldErrors = (query: string) => {
  try {
    parse(query);
  } catch (error) {
    assert.ok(error instanceof LoupeError && error.code === 'validation_failed');
    return error.details?.fieldErrors ?? {};
  }
  assert.fail(`${query} was accepted`);
};

describe('CDN query', () => {
  it('reads short names into transforms with their types', () => {
    assert.deepEqual(parse('w=300&h=200&g=face&f=auto&q=80').transforms, {
      width: 300,
      height: 200,
      gravity: 'face',
      format: 'auto',
      quality: 80,
    });
  });
  it('reads long names, booleans and radius max', () => {
    assert.deepEqual(parse('width=10&grayscale=true&sepia=0&radius=max&contrast=-12.5&bg=00ff00').transforms, {
      width: 10,
      grayscale: true,
      sepia: false,
      radius: 'max',
      contrast: -12.5,
      bg: '00ff00',
    });
  });
  it('takes the preset from t and keeps every parameter for signing', () => {
    const query = parse('t=thumb&w=5&exp=1900000000&s=ab');
    assert.equal(query.preset, 'thumb');
    assert.deepEqual(query.params, { t: 'thumb', w: '5', exp: '1900000000', s: 'ab' });
  });
  it('refuses out-of-range values by the name used', () => {
    assert.deepEqual(Object.keys(fieldErrors('w=0&q=101&rotate=45')).sort(), ['q', 'rotate', 'w']);
  });
  it('refuses fractions where an integer is required', () => {
    assert.ok(fieldErrors('width=10.5').width);
  });
  it('refuses an empty or non-numeric number', () => {
    assert.ok(fieldErrors('w=').w);
    assert.ok(fieldErrors('w=0x10').w);
  });
  it('refuses unknown and repeated parameters, and a field given twice under two names', () => {
    assert.ok(fieldErrors('zoom=2').zoom);
    assert.ok(fieldErrors('w=1&w=2').w);
    assert.ok(fieldErrors('w=1&width=2').width);
  });
  it('refuses inherited object names as unknown parameters, not as fields', () => {
    const errors = fieldErrors('constructor=1&__proto__=2');
    assert.deepEqual(Object.keys(errors).sort(), ['__proto__', 'constructor']);
    assert.ok(Object.hasOwn(errors, '__proto__'));
  });
  it('reads numbers in exponent form as JavaScript prints them', () => {
    assert.equal(parse('sharpen=1e-7').transforms.sharpen, 1e-7);
  });
  it('refuses a preset name outside [A-Za-z0-9_-]', () => {
    assert.ok(fieldErrors('t=../x').t);
  });
});
