import { CollapsedText } from './collapsed-text.ts';

/** Text gathered for one element: a link's text, a heading, a button's name. */
export class Capture {
  readonly text: CollapsedText;
  /** Image alts and SVG titles; the same object as `text` when they count as its text. */
  readonly alt: CollapsedText;

  constructor(cap: number, separateAlt: boolean) {
    this.text = new CollapsedText(cap);
    this.alt = separateAlt ? new CollapsedText(cap) : this.text;
  }
}

/**
 * The captures open at the current point of the document, innermost last. Elements nest,
 * so a capture opened later always closes first. Inside `<noscript>` only the captures
 * opened inside it get text: with scripting on, noscript content is not part of the
 * elements around it.
 */
export class TextCaptures {
  readonly #open: Capture[] = [];
  #floor = 0;
  #noscript = false;

  open(capture: Capture): void {
    this.#open.push(capture);
  }

  close(count: number): void {
    this.#open.length -= count;
  }

  /** Entering the outermost `<noscript>` (true) or leaving it (false). */
  noscript(inside: boolean): void {
    this.#noscript = inside;
    if (inside) this.#floor = this.#open.length;
  }

  /** Text inside the open elements; `asAlt` for SVG titles, which name without showing. */
  text(data: string, asAlt: boolean): void {
    const open = this.#open;
    for (let i = this.#noscript ? this.#floor : 0; i < open.length; i++) {
      const capture = open[i] as Capture;
      (asAlt ? capture.alt : capture.text).append(data);
    }
  }

  /** An image's alt, as its own word. */
  alt(alt: string): void {
    const open = this.#open;
    for (let i = this.#noscript ? this.#floor : 0; i < open.length; i++) {
      const capture = open[i] as Capture;
      capture.alt.space();
      capture.alt.append(alt);
      capture.alt.space();
    }
  }

  /** A block edge: separates words in every open capture. */
  space(): void {
    for (const capture of this.#open) {
      capture.text.space();
      capture.alt.space();
    }
  }
}
