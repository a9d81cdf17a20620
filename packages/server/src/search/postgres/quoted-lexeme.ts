/**
 * Reads a lexeme as PostgreSQL quotes it in a tsvector's or a tsquery's text (tsvectorout,
 * tsqueryout): `'it''s'`, a quote doubled and any character after a backslash taken as it is.
 * One reader serves a whole text, its last lexeme and where it ended kept in its fields: a
 * tsvector of a page has a thousand lexemes, and a seal reads millions, so none costs an object.
 */
export class QuotedLexemeReader {
  /** The lexeme last read. */
  lexeme = '';
  /** Where the text goes on after it (past its closing quote). */
  end = 0;

  /** Reads the lexeme whose opening quote is at `at`; false when it is not closed. */
  read(text: string, at: number): boolean {
    let lexeme = '';
    let from = ++at;
    for (;;) {
      if (at >= text.length) return false;
      const code = text.charCodeAt(at);
      if (code === 92 /* \ */ || (code === 39 /* ' */ && text.charCodeAt(at + 1) === 39)) {
        lexeme += text.slice(from, at) + text[at + 1];
        at += 2;
        from = at;
      } else if (code === 39) {
        this.lexeme = lexeme + text.slice(from, at);
        this.end = at + 1;
        return true;
      } else at++;
    }
  }
}
