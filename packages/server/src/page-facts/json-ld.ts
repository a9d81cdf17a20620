import { PAGE_FACT_CAPS } from './page-fact-caps.ts';

/** One `<script type="application/ld+json">` block. */
export interface JsonLdBlock {
  /** The script's text as written (not entity-decoded: script content is raw text), up to the cap. */
  raw: string;
  /** The block's full length in UTF-16 units; over `PAGE_FACT_CAPS.jsonLdChars` it is not parsed. */
  chars: number;
  /** The parsed value; undefined when `error` is set. */
  value?: unknown;
  /** JSON.parse's message, or the size message for a block over the cap; null when it parsed. */
  error: string | null;
  /** Distinct `@type` values anywhere in the value (`@graph` and nested nodes included), in order of appearance. */
  types: string[];
}

const MAX_DEPTH = 64;
const MAX_NODES = 20_000;

/** Parses one block's text; never throws. */
export function readJsonLd(raw: string, chars: number): JsonLdBlock {
  if (chars > PAGE_FACT_CAPS.jsonLdChars) {
    return {
      raw,
      chars,
      error: `JSON-LD block of ${chars} characters exceeds the ${PAGE_FACT_CAPS.jsonLdChars}-character cap and was not parsed`,
      types: [],
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { raw, chars, error: (error as Error).message, types: [] };
  }
  return { raw, chars, value, error: null, types: collectTypes(value) };
}

function collectTypes(root: unknown): string[] {
  const types = new Set<string>();
  let visited = 0;
  const visit = (node: unknown, depth: number): void => {
    if (depth > MAX_DEPTH || ++visited > MAX_NODES || types.size >= PAGE_FACT_CAPS.jsonLdTypes) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const type = (node as Record<string, unknown>)['@type'];
    for (const name of Array.isArray(type) ? type : [type]) {
      if (typeof name === 'string' && name.trim() !== '' && types.size < PAGE_FACT_CAPS.jsonLdTypes) types.add(name.trim());
    }
    for (const [key, child] of Object.entries(node)) {
      if (key !== '@type' && child !== null && typeof child === 'object') visit(child, depth + 1);
    }
  };
  visit(root, 0);
  return [...types];
}
