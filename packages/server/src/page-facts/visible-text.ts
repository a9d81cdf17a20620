import { isJsSpace } from './collapsed-text.ts';

/** Batches are handed on once this long, at the next word boundary. */
const FLUSH_CHARS = 16_384;

/** A page's visible text, bounded. */
export interface VisibleTextSummary {
  /** Whitespace-separated tokens (§0 "Words"); U+00A0 and the other Unicode spaces separate words. */
  wordCount: number;
  /**
   * The words as written, joined by single spaces, up to KEPT_TEXT_CHARS: what search indexes
   * and custom rules read once the page itself is gone.
   */
  text: string;
}

/** Receives each batch of words as it leaves the buffer: the words joined by single spaces, and how many. */
export type BatchListener = (words: string, count: number) => void;

/** Text kept of one page; enough for search and rules on any real page, bounded for a pathological one. */
export const KEPT_TEXT_CHARS = 100_000;

/**
 * Streams the visible words of a page into a word count and the start of the text, in
 * memory that does not grow with the page. Text arrives in pieces (entities are separate
 * events), so a word may continue into the next piece unless whitespace or a block boundary
 * (`boundary()`) came between them. Words are gathered as written and handed to the
 * listener a batch (words joined by single spaces) at a time: main content takes its words
 * from them, so the text is scanned once.
 */
export class VisibleText {
  /** Words as written, joined by single spaces, not yet hashed. */
  #batch = '';
  /** Whether the batch ends in a word the next piece may continue (no whitespace or boundary since). */
  #open = false;
  /** Joined batches of the start of the text, up to KEPT_TEXT_CHARS. */
  readonly #kept: string[] = [];
  #keptChars = 0;
  /** Characters of the text flushed so far, batches joined by spaces, kept or not. */
  #flushedChars = 0;
  #words = 0;
  #flushedWords = 0;
  #listener: BatchListener | null = null;

  /** Sends the batches to `listener` from now on. */
  listen(listener: BatchListener): void {
    this.#listener = listener;
  }

  append(chunk: string): void {
    const end = chunk.length;
    let i = 0;
    // Start of the stretch of `chunk` copied to the batch as it is: words apart by single spaces.
    let from = -1;
    while (i < end) {
      const unit = chunk.charCodeAt(i);
      if (isJsSpace(unit)) {
        const space = i;
        while (++i < end && isJsSpace(chunk.charCodeAt(i)));
        if (from === -1) {
          this.boundary();
        } else if (i - space > 1 || unit !== 0x20 || i === end) {
          this.#batch += chunk.slice(from, space);
          from = -1;
          this.boundary();
        }
        continue;
      }
      const start = i;
      while (++i < end && !isJsSpace(chunk.charCodeAt(i)));
      if (from !== -1) {
        this.#words++;
        continue;
      }
      from = start;
      // A word at the start of the piece continues the one before it, unless a boundary came between.
      if (start === 0 && this.#open) continue;
      if (this.#batch !== '') this.#batch += ' ';
      this.#words++;
    }
    if (from !== -1) {
      this.#batch += from === 0 ? chunk : chunk.slice(from);
      this.#open = true;
    }
  }

  /**
   * Characters of the whole text so far, as `finish().text` would have them before the cap:
   * where the next word will start, one space on. Main content is kept as stretches of it.
   */
  get length(): number {
    const batch = this.#batch.length;
    if (batch === 0) return this.#flushedChars;
    return this.#flushedChars === 0 ? batch : this.#flushedChars + 1 + batch;
  }

  /** Ends the current word: whitespace, or an element boundary that separates words. */
  boundary(): void {
    this.#open = false;
    if (this.#batch.length >= FLUSH_CHARS) this.#flush();
  }

  /** Ends the current word and hands on every word so far: what comes next goes to a batch of its own. */
  cut(): void {
    this.#open = false;
    this.#flush();
  }

  finish(): VisibleTextSummary {
    this.boundary();
    this.#flush();
    const kept = this.#kept.join(' ');
    return { wordCount: this.#words, text: kept.length > KEPT_TEXT_CHARS ? kept.slice(0, KEPT_TEXT_CHARS) : kept };
  }

  #flush(): void {
    const text = this.#batch;
    if (text === '') return;
    this.#batch = '';
    this.#flushedChars += this.#flushedChars === 0 ? text.length : text.length + 1;
    if (this.#keptChars < KEPT_TEXT_CHARS) {
      this.#kept.push(text);
      this.#keptChars += text.length + 1;
    }
    const count = this.#words - this.#flushedWords;
    this.#flushedWords = this.#words;
    this.#listener?.(text, count);
  }
}
