import { isDeepStrictEqual } from 'node:util';
import type { SearchQuery, SearchTerm } from '@loupe/contract';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { compiledOnce } from '../../database/compiled-query.ts';
import type { Database } from '../../database/database.ts';
import type { LexemePhrase } from '../postings/positional-ranking.ts';
import { englishSample, plainTermReading } from './postgres-english.ts';
import { QuotedLexemeReader } from './quoted-lexeme.ts';

/** A term as PostgreSQL reads it: its lexemes; 'stop words' when it has none; 'other' when it is not a plain phrase. */
export type ReadTerm = LexemePhrase | 'stop words' | 'other';

/**
 * What phraseto_tsquery('english', …) makes of the terms people type. A term of plain words is
 * read here (postgres-english.ts) once the database's reading of a sample agreed; others are
 * asked of the database, and kept per process: the configuration never changes, so neither does
 * a term's reading, and the same words come back query after query.
 */
export class PostgresQueryTerms {
  readonly #database: Database;
  readonly #read = new LRUCache<string, ReadTerm>({ max: 50_000 });
  readonly #readings;
  /** Whether the database reads englishSample() as this process does: asked by the first read that needs it. */
  #agrees?: Promise<boolean>;

  constructor(database: Database) {
    this.#database = database;
    this.#readings = compiledOnce(() =>
      sql<{ term: string; query: string }>`
        SELECT t.term, phraseto_tsquery('english'::regconfig, t.term)::text AS query FROM unnest(${[]}::text[]) AS t(term)
      `.compile(database.db),
    );
  }

  /**
   * Each term's reading: computed for a term of plain words (so a never-seen word costs no round
   * trip before its list's), else kept, else asked, those asked in one statement.
   */
  async read(terms: readonly SearchTerm[]): Promise<Map<string, ReadTerm>> {
    const readings = new Map<string, ReadTerm>();
    let unknown: string[] = [];
    for (const { text } of terms) {
      const kept = this.#read.get(text);
      if (kept) readings.set(text, kept);
      else if (!unknown.includes(text)) unknown.push(text);
    }
    if (unknown.length > 0 && (await this.#agreesWithDatabase())) {
      unknown = unknown.filter((text) => {
        const plain = plainTermReading(text);
        if (plain !== undefined) readings.set(text, plain ?? 'stop words');
        return plain === undefined;
      });
    }
    if (unknown.length > 0) {
      const { rows } = await this.#database.db.executeQuery(this.#readings(unknown));
      for (const row of rows) {
        const reading = parsePhraseQuery(row.query);
        this.#read.set(row.term, reading);
        readings.set(row.term, reading);
      }
    }
    return readings;
  }

  #agreesWithDatabase(): Promise<boolean> {
    this.#agrees ??= this.#readSample().catch(() => {
      this.#agrees = undefined; // asked again by the next read
      return false;
    });
    return this.#agrees;
  }

  async #readSample(): Promise<boolean> {
    const sample = englishSample().join(' ');
    const { rows } = await sql<{ query: string }>`SELECT phraseto_tsquery('english'::regconfig, ${sample})::text AS query`.execute(
      this.#database.db,
    );
    return isDeepStrictEqual(parsePhraseQuery(rows[0].query), plainTermReading(sample));
  }
}

const isPhrase = (reading: ReadTerm | undefined): reading is LexemePhrase => typeof reading === 'object';

/**
 * The query's required groups as PostgreSQL reads their terms: a term of stop words alone is
 * left out of the tsquery (phraseto_tsquery gives nothing), and so is a group of them.
 */
export function requiredPhrases(query: SearchQuery, readings: ReadonlyMap<string, ReadTerm>): LexemePhrase[][] {
  return query.required.map((group) => group.map((term) => readings.get(term.text)).filter(isPhrase)).filter((group) => group.length > 0);
}

/** The query's excluded terms as PostgreSQL reads them, those of stop words alone left out. */
export function excludedPhrases(query: SearchQuery, readings: ReadonlyMap<string, ReadTerm>): LexemePhrase[] {
  return query.excluded.map((term) => readings.get(term.text)).filter(isPhrase);
}

/** A phrase as tsquery text, as phraseto_tsquery writes it: parsePhraseQuery's inverse. */
export function phraseQueryText(phrase: LexemePhrase): string {
  const quoted = phrase.lexemes.map((lexeme) => `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`);
  return quoted.map((lexeme, i) => (i === 0 ? lexeme : ` <${phrase.offsets[i] - phrase.offsets[i - 1]}> ${lexeme}`)).join('');
}

/**
 * Reads phraseto_tsquery's text (`'big-deal' <-> 'big' <-> 'deal' <2> 'cat'`: lexemes quoted as
 * tsqueryout writes them, a quote and a backslash doubled). Anything but lexemes joined by
 * distances is 'other'.
 */
export function parsePhraseQuery(text: string): ReadTerm {
  if (text.trim() === '') return 'stop words';
  const lexemes: string[] = [];
  const offsets: number[] = [];
  let at = 0;
  let offset = 0;
  const quoted = new QuotedLexemeReader();
  for (;;) {
    while (text[at] === ' ') at++;
    if (text[at] !== "'" || !quoted.read(text, at)) return 'other';
    at = quoted.end;
    lexemes.push(quoted.lexeme);
    offsets.push(offset);
    while (text[at] === ' ') at++;
    if (at >= text.length) return { lexemes, offsets };
    const distance = /^<(-|\d+)>/.exec(text.slice(at, at + 8));
    if (!distance) return 'other';
    offset += distance[1] === '-' ? 1 : Number(distance[1]);
    at += distance[0].length;
  }
}
