import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { transformFields, transformNames } from '@loupe/contract';
import { fieldOfQueryName, transformControls } from './transform-controls.ts';

const control = (name: string) => {
  const found = transformControls.find((each) => each.name === name);
  assert.ok(found, `no control for ${name}`);
  return found;
};

describe('preset editor controls, read from the contract', () => {
  it('has one control for every transform parameter, in the contract order', () => {
    assert.deepEqual(
      transformControls.map((each) => each.name),
      transformNames,
    );
    assert.equal(transformControls.length, 28);
  });

  it('offers the poster frame and GIF output for animations', () => {
    const frame = control('frame');
    assert.deepEqual(frame.kind === 'number' && [frame.min, frame.max, frame.step], [1, 10000, 1]);
    const format = control('format');
    assert.ok(format.kind === 'select' && format.options.includes('gif'));
  });

  it('gives numbers with a range a slider over exactly that range', () => {
    assert.deepEqual(control('width'), {
      name: 'width',
      label: 'Width',
      description: 'Output width in pixels.',
      queryName: 'w',
      kind: 'number',
      min: 1,
      max: 8192,
      step: 1,
      keywords: [],
    });
    assert.deepEqual(
      [control('brightness'), control('dpr'), control('blur')].map((each) => each.kind === 'number' && [each.min, each.max]),
      [
        [-100, 100],
        [1, 3],
        [1, 250],
      ],
    );
  });

  it('steps a fractional number finely enough to reach its fractions', () => {
    const sharpen = control('sharpen');
    assert.equal(sharpen.kind === 'number' && sharpen.step, 0.1);
    assert.ok(transformFields.sharpen.safeParse(0.1).success);
  });

  it('gives the overlay a text field and its gravity a select of places only', () => {
    assert.deepEqual([control('overlay').kind, control('overlay').queryName, control('overlay').label], ['text', 'ov', 'Overlay image']);
    assert.deepEqual([control('overlayX').label, control('overlayOpacity').label], ['Overlay X offset', 'Overlay opacity']);
    const gravity = control('overlayGravity');
    assert.ok(gravity.kind === 'select' && gravity.options.includes('bottom-right') && gravity.options.includes('center'));
    assert.ok(gravity.kind === 'select' && !gravity.options.includes('auto') && !gravity.options.includes('face'));
    const opacity = control('overlayOpacity');
    assert.deepEqual(opacity.kind === 'number' && [opacity.min, opacity.max, opacity.step], [0, 100, 1]);
  });

  it('offers a number or its keyword for radius', () => {
    const radius = control('radius');
    assert.deepEqual(radius.kind === 'number' && [radius.min, radius.max, radius.keywords], [1, 9999, ['max']]);
  });

  it('gives enums and unions of values a select with every allowed value', () => {
    const fit = control('fit');
    assert.deepEqual(fit.kind === 'select' && fit.options, ['cover', 'contain', 'fill', 'scale-down', 'crop', 'pad']);
    const rotate = control('rotate');
    assert.deepEqual(rotate.kind === 'select' && rotate.options, [90, 180, 270]);
    const gravity = control('gravity');
    assert.ok(gravity.kind === 'select' && gravity.options.includes('bottom-right'));
  });

  it('gives booleans a checkbox and the background a colour picker', () => {
    assert.deepEqual(
      ['grayscale', 'sepia', 'bg'].map((name) => control(name).kind),
      ['boolean', 'boolean', 'colour'],
    );
    assert.equal(control('bg').label, 'Background');
    assert.equal(control('qualityMode').label, 'Quality mode');
  });

  it("maps a CDN query name back to its field, as the CDN's error keys use them", () => {
    assert.deepEqual(['w', 'h', 'g', 'f', 'q', 'bg', 'radius', 't', 'nope'].map(fieldOfQueryName), [
      'width',
      'height',
      'gravity',
      'format',
      'quality',
      'bg',
      'radius',
      undefined,
      undefined,
    ]);
  });
});
