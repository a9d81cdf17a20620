import { readJsonLd } from './json-ld.ts';
import { PAGE_FACT_CAPS } from './page-fact-caps.ts';
import type { PageFacts } from './page-facts.ts';

type RawTextFacts = Pick<PageFacts, 'inlineScripts' | 'inlineStyles' | 'jsonLd' | 'jsonLdCount'>;

/**
 * The content of `<script>` and `<style>`: raw text, never visible, never entity-decoded.
 * Inline scripts and styles are only measured; JSON-LD blocks are kept (up to the cap) and
 * parsed when they close. Script and style cannot nest, so one block is open at a time.
 */
export class RawTextBlocks {
  #kind: 'script' | 'style' | 'jsonld' | 'ignore' | null = null;
  #chars = 0;
  #text = '';
  readonly #facts: RawTextFacts = {
    inlineScripts: { count: 0, chars: 0 },
    inlineStyles: { count: 0, chars: 0 },
    jsonLd: [],
    jsonLdCount: 0,
  };

  get open(): boolean {
    return this.#kind !== null;
  }

  /** 'ignore' is for external scripts and non-JSON-LD data blocks: their content says nothing we record. */
  start(kind: 'script' | 'style' | 'jsonld' | 'ignore'): void {
    this.#kind = kind;
    this.#chars = 0;
    this.#text = '';
  }

  text(data: string): void {
    this.#chars += data.length;
    if (this.#kind === 'jsonld' && this.#text.length < PAGE_FACT_CAPS.jsonLdChars) this.#text += data;
  }

  end(): void {
    const facts = this.#facts;
    if (this.#kind === 'script' || this.#kind === 'style') {
      const into = this.#kind === 'script' ? facts.inlineScripts : facts.inlineStyles;
      into.count++;
      into.chars += this.#chars;
    } else if (this.#kind === 'jsonld') {
      facts.jsonLdCount++;
      const raw = this.#text.slice(0, PAGE_FACT_CAPS.jsonLdChars).trim();
      if (facts.jsonLd.length < PAGE_FACT_CAPS.jsonLdBlocks) facts.jsonLd.push(readJsonLd(raw, this.#chars));
    }
    this.#kind = null;
    this.#text = '';
  }

  finish(): RawTextFacts {
    return this.#facts;
  }
}
