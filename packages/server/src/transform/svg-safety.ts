import { type SaxesAttributeNS, SaxesParser, type SaxesTagNS } from 'saxes';
import { svgElementAttributes } from 'svg-element-attributes';
import { ImageDecodeError } from './image-decode-error.ts';

/**
 * SVG is a document, not just pixels: it can carry scripts, event handlers, entities,
 * animations that rewrite links, and references to other files or addresses. We rasterise
 * it with librsvg (no scripts run), but the original is also served as stored, so at upload
 * an SVG must hold nothing but static drawing: every element and attribute is read with its
 * namespace (an XML parser resolves `s:script` to SVG's script) and checked against an
 * allow-list; anything else refuses the file, which is never rewritten.
 */
const SVG = 'http://www.w3.org/2000/svg';
const XLINK = 'http://www.w3.org/1999/xlink';
const XML = 'http://www.w3.org/XML/1998/namespace';
const XMLNS = 'http://www.w3.org/2000/xmlns/';
/** Editors' bookkeeping (Inkscape, Sodipodi, RDF metadata): nothing renders or runs it. */
const INERT_NAMESPACES = new Set([
  'http://www.inkscape.org/namespaces/inkscape',
  'http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  'http://purl.org/dc/elements/1.1/',
  'http://creativecommons.org/ns#',
]);

/**
 * Static SVG elements, with the attributes the SVG specifications give each (the
 * svg-element-attributes package, which lists no event handlers). Left out: script,
 * foreignObject (HTML inside), every animation element (animate, set… can rewrite an `href`
 * or an `on…` attribute), SVG fonts, cursors and colour profiles (references to files), and
 * the media and XML Events elements of SVG Tiny.
 */
const ELEMENTS = [
  'svg',
  'g',
  'defs',
  'desc',
  'title',
  'metadata',
  'symbol',
  'use',
  'switch',
  'view',
  'a',
  'image',
  'style',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'clipPath',
  'mask',
  'marker',
  'filter',
  'feBlend',
  'feColorMatrix',
  'feComponentTransfer',
  'feComposite',
  'feConvolveMatrix',
  'feDiffuseLighting',
  'feDisplacementMap',
  'feDistantLight',
  'feDropShadow',
  'feFlood',
  'feFuncA',
  'feFuncB',
  'feFuncG',
  'feFuncR',
  'feGaussianBlur',
  'feImage',
  'feMerge',
  'feMergeNode',
  'feMorphology',
  'feOffset',
  'fePointLight',
  'feSpecularLighting',
  'feSpotLight',
  'feTile',
  'feTurbulence',
];
/** SVG 2's presentation attributes (§6.6) that the package's lists predate. */
const SVG2_PRESENTATION = [
  'font',
  'inline-size',
  'isolation',
  'marker',
  'mask-type',
  'mix-blend-mode',
  'shape-image-threshold',
  'shape-inside',
  'shape-margin',
  'shape-padding',
  'shape-subtract',
  'transform-box',
  'transform-origin',
];
const ATTRIBUTES = new Map(
  ELEMENTS.map((name) => [
    name,
    new Set([...(svgElementAttributes['*'] ?? []), ...SVG2_PRESENTATION, ...(svgElementAttributes[name] ?? [])]),
  ]),
);
/** Harmless on any element: data and accessibility attributes. */
const FREE_ATTRIBUTE = /^(data|aria)-[\w.-]+$|^role$/;
/** Namespaced attributes allowed besides namespace declarations. */
const NAMESPACED_ATTRIBUTES = new Map([
  [XLINK, new Set(['href', 'title'])],
  [XML, new Set(['space', 'lang'])],
]);
/** Attributes whose value is a link: only to a fragment of this document (`#id`). */
const LINKS = new Set(['href', 'ping']);
/** …except an embedded raster picture, for the elements that draw one. */
const RASTER_DATA = /^data:image\/(png|jpeg|gif|webp|avif)[;,]/i;
const DRAWS_PICTURES = new Set(['image', 'feImage']);
/** Declared encodings whose bytes read as UTF-8 for every character markup is made of. */
const ASCII_COMPATIBLE = /^(utf-8|us-ascii|iso-8859-\d+|windows-125\d)$/i;

const LOADS_OR_RUNS = /@import|image-set\(|src\(|expression\(|behavior\s*:|-moz-binding|javascript:/i;
/** A quick pass over every value: most hold none of what checkCss looks for. */
const SUSPECT_CSS = /[\\(:@]|\/\*/;

const refuse = (why: string): never => {
  throw new ImageDecodeError('unsupported', `SVG files with ${why} are not accepted.`);
};

/**
 * CSS, in a style sheet, a `style` attribute or a presentation attribute: a `url()` may only
 * name a fragment of this document; anything else that loads or runs (imports, image-set,
 * `javascript:`, old IE's behaviours and expressions) is refused, as are backslash escapes
 * and comments, which could spell those in a way a search would miss.
 */
function checkCss(css: string, where: () => string): void {
  if (!SUSPECT_CSS.test(css)) return;
  if (/[\\]|\/\*/.test(css)) refuse(`a CSS escape or comment in ${where()}`);
  if (LOADS_OR_RUNS.test(css)) refuse(`CSS that loads or runs something in ${where()}`);
  for (const [, target] of css.matchAll(/url\(\s*['"]?\s*([^'")]*)/gi)) {
    if (!target?.startsWith('#')) refuse(`a url() to another file or address in ${where()}`);
  }
}

/** `element` is the local name of an SVG element, or undefined for an editor's element. */
function checkAttribute(element: string | undefined, attribute: SaxesAttributeNS): void {
  const { uri, local, name, value } = attribute;
  const where = () => `${name} on <${element ?? 'an editor element'}>`;
  if (/^on/i.test(local)) refuse(`an event handler (${where()})`);
  if (uri === XMLNS || INERT_NAMESPACES.has(uri) || (uri === '' && element === undefined)) return;
  const allowed =
    uri === ''
      ? (element !== undefined && ATTRIBUTES.get(element)?.has(local)) || FREE_ATTRIBUTE.test(local)
      : NAMESPACED_ATTRIBUTES.get(uri)?.has(local);
  if (!allowed) refuse(`the attribute ${where()}`);
  if (LINKS.has(local)) {
    const target = value.trim();
    if (!target.startsWith('#') && !(element && DRAWS_PICTURES.has(element) && RASTER_DATA.test(target))) {
      refuse(`a link to another file or address (${where()})`);
    }
  }
  checkCss(value, where);
}

/** Throws ImageDecodeError ('unsupported') unless the SVG holds only static drawing. */
export function assertSafeSvg(svg: Buffer): void {
  const parser = new SaxesParser({ xmlns: true });
  let styleSheet: string | undefined;
  parser.on('error', (error) => refuse(`XML that does not parse (${error.message.split('\n')[0]})`));
  parser.on('doctype', () => refuse('a DOCTYPE (entity and attribute declarations)'));
  parser.on('processinginstruction', ({ target }) => refuse(`the processing instruction <?${target}?>`));
  parser.on('xmldecl', ({ encoding }) => {
    if (encoding !== undefined && !ASCII_COMPATIBLE.test(encoding)) refuse(`the encoding ${encoding}`);
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (styleSheet !== undefined) refuse('markup inside <style>');
    const inert = INERT_NAMESPACES.has(tag.uri);
    if (!inert && (tag.uri !== SVG || !ATTRIBUTES.has(tag.local))) refuse(`the element <${tag.name}>${tag.uri ? ` (${tag.uri})` : ''}`);
    for (const attribute of Object.values(tag.attributes)) checkAttribute(inert ? undefined : tag.local, attribute);
    if (tag.local === 'style') styleSheet = '';
  });
  const addText = (text: string) => {
    if (styleSheet !== undefined) styleSheet += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    if (styleSheet !== undefined) checkCss(styleSheet, () => '<style>');
    styleSheet = undefined;
  });
  parser.write(svg.toString('utf8')).close();
}
