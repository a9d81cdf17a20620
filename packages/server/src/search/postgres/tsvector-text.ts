import { QuotedLexemeReader } from './quoted-lexeme.ts';

/**
 * Reads a tsvector as PostgreSQL writes it as text (tsvectorout): `'lexeme':1A,5B 'other':3`,
 * a quote in a lexeme doubled and a backslash escaped, weight D written as nothing. Each
 * lexeme is handed over with its positions as WordEntryPos values (weight in the top two bits,
 * D = 0 … A = 3), in the order the tsvector keeps them (its lexemes sorted, positions ascending).
 */
export function forEachLexeme(text: string, visit: (lexeme: string, positions: Uint16Array) => void): void {
  let at = 0;
  const scratch: number[] = [];
  const quoted = new QuotedLexemeReader();
  while (at < text.length) {
    if (text.charCodeAt(at) === 32) {
      at++;
      continue;
    }
    if (text[at] !== "'") throw new SyntaxError(`a tsvector's lexeme starts with a quote, at ${at}`);
    if (!quoted.read(text, at)) throw new SyntaxError('a lexeme of the tsvector is not closed');
    at = quoted.end;
    scratch.length = 0;
    if (text[at] === ':') {
      at++;
      for (;;) {
        let position = 0;
        let code = text.charCodeAt(at);
        while (code >= 48 && code <= 57) {
          position = position * 10 + code - 48;
          code = text.charCodeAt(++at);
        }
        const weight = code === 65 ? 3 : code === 66 ? 2 : code === 67 ? 1 : 0;
        if (weight > 0) at++;
        scratch.push((weight << 14) | position);
        if (text[at] !== ',') break;
        at++;
      }
    }
    visit(quoted.lexeme, Uint16Array.from(scratch));
  }
}
