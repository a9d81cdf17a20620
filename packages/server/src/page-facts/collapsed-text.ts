/**
 * Text as §0 of audit-checks.md measures it: trimmed, every run of whitespace (JavaScript's
 * `\s`, which includes U+00A0 and the other Unicode spaces) collapsed to one space, length in
 * code points. It is fed in pieces, because htmlparser2 reports `A &amp; B` as three text
 * events, and keeps at most `cap` code points while still counting the whole length.
 */
export class CollapsedText {
  readonly #cap: number;
  #kept = '';
  #keptLength = 0;
  #length = 0;
  #space = false;

  constructor(cap: number) {
    this.#cap = cap;
  }

  /** The collapsed text of a whole string (an attribute value), kept up to `cap`. */
  static of(value: string, cap: number): CollapsedText {
    const text = new CollapsedText(cap);
    text.append(value);
    return text;
  }

  append(chunk: string): void {
    const end = chunk.length;
    let i = 0;
    while (i < end) {
      if (isJsSpace(chunk.charCodeAt(i))) {
        this.#space = true;
        i++;
        continue;
      }
      const start = i;
      while (++i < end && !isJsSpace(chunk.charCodeAt(i)));
      if (this.#space && this.#length > 0) this.#emit(' ', 1);
      this.#space = false;
      const word = start === 0 && i === end ? chunk : chunk.slice(start, i);
      this.#emit(word, codePointLength(word));
    }
  }

  /** A boundary that separates words (a block element or `<br>`) without adding text. */
  space(): void {
    this.#space = true;
  }

  /** The collapsed text, cut at the cap. */
  get text(): string {
    return this.#kept;
  }

  /** Code points of the whole collapsed text, including what the cap cut off. */
  get length(): number {
    return this.#length;
  }

  #emit(piece: string, length: number): void {
    this.#length += length;
    if (this.#keptLength >= this.#cap) return;
    if (this.#keptLength + length <= this.#cap) {
      this.#kept += piece;
      this.#keptLength += length;
      return;
    }
    const room = this.#cap - this.#keptLength;
    this.#kept += Array.from(piece).slice(0, room).join('');
    this.#keptLength = this.#cap;
  }
}

/** Code points in `text`: UTF-16 units minus the second half of each surrogate pair. */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff && i > 0) {
      const previous = text.charCodeAt(i - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) length--;
    }
  }
  return length;
}

/**
 * Whether a UTF-16 unit is whitespace for JavaScript's `\s` (WhiteSpace and LineTerminator):
 * what splits words in §0 of audit-checks.md. A scan with it allocates nothing, where a
 * `/\S+/g` loop makes an array per word.
 */
export function isJsSpace(unit: number): boolean {
  if (unit <= 0x20) return unit === 0x20 || (unit >= 0x09 && unit <= 0x0d);
  if (unit < 0xa0) return false;
  return (
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000 ||
    unit === 0xfeff
  );
}
