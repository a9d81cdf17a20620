import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SaxesParser } from 'saxes';
import { ImageDecodeError } from './image-decode-error.ts';
import { inspectImage } from './inspect-image.ts';
import { assertSafeSvg } from './svg-safety.ts';

interface Vector {
  from: string;
  title: string;
  svg: string;
}

/**
 * A published corpus of SVG XSS vectors: DOMPurify's test suite (cure53/DOMPurify,
 * test/fixtures/expect.mjs), the OWASP XSS Filter Evasion Cheat Sheet and issue #22, each
 * made a whole SVG document; the file says which vector comes from where.
 */
const corpus = JSON.parse(readFileSync(new URL('../../testdata/svg-xss-vectors.json', import.meta.url), 'utf8')) as {
  attacks: Vector[];
  benign: Vector[];
};

const refused = (error: unknown) => error instanceof ImageDecodeError && error.reason === 'unsupported';

/**
 * The vector is well-formed, namespaced XML: what refuses it is the allow-list, not a parse
 * error. (saxes reads no DTD, so the entities a vector's DOCTYPE declares are declared to it.)
 */
function assertWellFormed(svg: string): void {
  const parser = new SaxesParser({ xmlns: true });
  parser.on('doctype', (doctype) => {
    for (const [, name] of doctype.matchAll(/<!ENTITY\s+(\S+)/g)) parser.ENTITIES[name as string] = '';
  });
  parser.write(svg).close();
}

describe('SVG safety: every vector of the corpus is refused at upload', () => {
  for (const { from, title, svg } of corpus.attacks) {
    it(`refuses ${title} (${from})`, () => {
      assertWellFormed(svg);
      assert.throws(() => assertSafeSvg(Buffer.from(svg)), refused);
    });
  }
});

describe('SVG safety: drawings as editors save them are accepted', () => {
  for (const { from, title, svg } of corpus.benign) {
    it(`accepts ${title} (${from}) and decodes it`, async () => {
      assert.doesNotThrow(() => assertSafeSvg(Buffer.from(svg)));
      const facts = await inspectImage(Buffer.from(svg), { maxInputPixels: 1_000_000, maxAnimationPixels: 1_000_000 });
      assert.equal(facts.format, 'svg');
    });
  }
});

describe('SVG safety: what the parser itself refuses', () => {
  it('refuses a prefix bound to no namespace', () => {
    assert.throws(() => assertSafeSvg(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></svg>')), refused);
  });
  it('refuses markup that is not XML', () => {
    assert.throws(() => assertSafeSvg(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><g onload=alert(1)></svg>')), refused);
  });
  it('names what it refused', () => {
    assert.throws(
      () => assertSafeSvg(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" xmlns:s="http://www.w3.org/2000/svg"><s:script/></svg>')),
      /<s:script>/,
    );
  });
});
