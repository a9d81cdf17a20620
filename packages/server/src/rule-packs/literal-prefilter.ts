import { RE2JS } from 're2js';

/** What a text must contain for an expression to match: a string, all of some needs, or any. */
type Need = { has: string } | { all: Need[] } | { any: Need[] };

/** re2js's prefilter node types (`Prefilter.Type` in re2js 2.x, checked by `prefiltersWork`). */
const EXACT = 1;
const AND = 2;
const OR = 3;
/** Past this many strings to look for, scanning for them stops being cheaper than the DFA. */
const MAX_STRINGS = 32;

/** A node of re2js's prefilter tree as this module reads it; anything else means no prefilter. */
interface PrefilterNode {
  type: number;
  str: string;
  subs: PrefilterNode[];
}

/** The fold orbit of an ASCII letter holds one character that `toLowerCase` does not map into it: ſ (U+017F) for s. */
const LONG_S = '\u017f';

function readNeed(node: PrefilterNode, count: { strings: number }): Need | null {
  if (node.type === EXACT) {
    if (typeof node.str !== 'string' || !/^[\x20-\x7e]+$/.test(node.str)) return null;
    count.strings += 1;
    return { has: node.str.toLowerCase() };
  }
  if ((node.type !== AND && node.type !== OR) || !Array.isArray(node.subs)) return null;
  const subs: Need[] = [];
  for (const sub of node.subs) {
    const need = readNeed(sub, count);
    // A part of an `all` that cannot be checked is left out; one of an `any` makes the whole unknown.
    if (need) subs.push(need);
    else if (node.type === OR) return null;
  }
  if (subs.length === 0) return null;
  return node.type === AND ? { all: subs } : { any: subs };
}

function holds(need: Need, lowered: string): boolean {
  if ('has' in need) return lowered.includes(need.has);
  if ('all' in need) return need.all.every((sub) => holds(sub, lowered));
  return need.any.some((sub) => holds(sub, lowered));
}

/** The strings an expression needs, as re2js's own prefilter for its case-sensitive form finds them. */
function needOf(pattern: string): Need | null {
  const node = (RE2JS.compile(pattern).re2Input as { prefilter?: PrefilterNode | null }).prefilter;
  if (!node) return null;
  const count = { strings: 0 };
  const need = readNeed(node, count);
  return need && count.strings <= MAX_STRINGS ? need : null;
}

/**
 * Whether re2js's prefilter tree reads as this module expects (its shape is not a documented
 * API): on a version where it does not, expressions simply run without a prefilter.
 */
function prefiltersWork(): boolean {
  try {
    const same = (pattern: string, expected: Need) => JSON.stringify(needOf(pattern)) === JSON.stringify(expected);
    return (
      same('Abc', { has: 'abc' }) &&
      same('abc|xyz', { any: [{ has: 'abc' }, { has: 'xyz' }] }) &&
      same('abc.*xyz', { all: [{ has: 'abc' }, { has: 'xyz' }] }) &&
      needOf('a*') === null
    );
  } catch {
    return false;
  }
}

const enabled = prefiltersWork();

/**
 * A quick necessary condition for a case-insensitive RE2 expression: strings that any text it
 * matches contains, looked for in the text lower-cased (which every case-insensitive test of a
 * page shares). re2js uses such a prefilter for case-sensitive expressions only; on the page
 * texts rules read, most expressions have literals that most pages lack, and `includes` over
 * them is ten times faster than its DFA. Only ASCII strings are used: each of their letters
 * matches itself, its capital and, for k and s, the Kelvin sign (lower-cased to k) and ſ
 * (which lower-casing keeps), so a text holding ſ is always left to the expression.
 */
export class LiteralPrefilter {
  readonly #need: Need;

  private constructor(need: Need) {
    this.#need = need;
  }

  /** Undefined when the expression needs no string this can look for (or prefilters are off). */
  static forCaseInsensitive(pattern: string): LiteralPrefilter | undefined {
    if (!enabled) return undefined;
    const need = needOf(pattern);
    return need ? new LiteralPrefilter(need) : undefined;
  }

  /** False only when the expression cannot match the text whose lower-cased form is `lowered`. */
  mayMatch(lowered: string): boolean {
    return holds(this.#need, lowered) || lowered.includes(LONG_S);
  }

  /** What the text must contain (lower-cased), for tests and debugging. */
  toJSON(): Need {
    return this.#need;
  }

  /** For tests: whether prefilters are on in this re2js. */
  static get enabled(): boolean {
    return enabled;
  }
}
