import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import { testDialects } from '../../testing/test-dialects.ts';
import type { LexemePhrase } from '../postings/positional-ranking.ts';
import { MARK_END, MARK_START } from '../snippets/snippet-html.ts';
import { markedSnippet } from '../snippets/text-snippet.ts';
import { parsedQuery as query } from '../test-parsed-query.ts';
import { PostgresQueryTerms, requiredPhrases } from './postgres-query-terms.ts';
import { wantedLexemes } from './postgres-snippet.ts';

const shown = (marked: string) => marked.replaceAll(MARK_START, '[').replaceAll(MARK_END, ']');
const phrase = (lexemes: string[], offsets = lexemes.map((_, i) => i)): LexemePhrase => ({ lexemes, offsets });
const snippet = (text: string, groups: LexemePhrase[][]) => shown(markedSnippet(text, wantedLexemes(groups)));

describe('PostgreSQL snippets', () => {
  it("mark the words stemming to a term's lexeme, in any case", () => {
    assert.equal(snippet('Lanterns and a lantern, Lanterned.', [[phrase(['lantern'])]]), '[Lanterns] and a [lantern], [Lanterned]');
    assert.equal(snippet('She was dying; he died.', [[phrase(['die'])]]), 'She was [dying]; he [died]');
  });

  it('mark a phrase where its words stand at their distances, a stop word between them', () => {
    // "lamp of oil": 'lamp' <2> 'oil'.
    assert.equal(snippet('a lamp oil, a lamp of oil', [[phrase(['lamp', 'oil'], [0, 2])]]), 'a lamp oil, a [lamp of oil]');
  });

  it('mark a hyphenated word by its parts, PostgreSQL reading it as the whole and then each part', () => {
    assert.equal(snippet('A well-kept garden, kept well.', [[phrase(['well-kept', 'well', 'kept'])]]), 'A [well-kept] garden, kept well');
    assert.equal(snippet('A well-kept garden, kept well.', [[phrase(['kept'])]]), 'A well-[kept] garden, [kept] well');
  });

  it('mark a lexeme of more than one token, as a host name or a number with a point, where it stands whole', () => {
    assert.equal(
      snippet('See Example.com or example.community, pi is 3.14 not 3.141.', [[phrase(['example.com'])], [phrase(['3.14'])]]),
      'See [Example.com] or example.community, pi is [3.14] not 3.141',
    );
  });
});

for (const dialect of testDialects().filter((d) => d === 'postgres')) {
  describe(`PostgreSQL snippets against PostgreSQL (${dialect})`, () => {
    let store: TestDatabase;
    before(async () => {
      store = await openTestDatabase(dialect);
    });
    after(() => store.close());

    it('mark what ts_headline marks in the same text, the terms read by PostgreSQL', async () => {
      const texts = [
        'Running runners ran; the runner runs daily, generalizations generally generalize.',
        'Connections connected: a connective conditionally conditioned relational rationale.',
        "Hopping hoped hopes, happiness, happily, happier; the sky's skies and O'Reilly's books.",
        'Visit example.com for version 2.4 of the mp3 players, 40 of them.',
        'Naïve résumé of a coöperative façade: déjà vu, ÉCOLE école.',
      ];
      const questions = [
        'run',
        'runners daily',
        'generalization',
        'connect',
        'condition relation',
        'hope',
        'happy',
        'sky',
        'reilly books',
        'example.com',
        'mp3 players',
        '40',
        'résumé',
        'école',
        'the runs',
      ];
      const terms = new PostgresQueryTerms(store.database);
      let compared = 0;
      for (const q of questions) {
        const parsed = query(q);
        const wanted = wantedLexemes(requiredPhrases(parsed, await terms.read(parsed.required.flat())));
        for (const [i, text] of texts.entries()) {
          const { rows } = await sql<{ marked: string; matches: boolean }>`
            SELECT ts_headline('english', ${text}, tq, ${`HighlightAll=true, StartSel=${MARK_START}, StopSel=${MARK_END}`}) AS marked,
              to_tsvector('english', ${text}) @@ tq AS matches
            FROM (SELECT ${sql.join(
              parsed.required.map(
                (group) =>
                  sql`(${sql.join(
                    group.map((term) => sql`phraseto_tsquery('english', ${term.text})`),
                    sql` || `,
                  )})`,
              ),
              sql` && `,
            )} AS tq) q`.execute(store.database.db);
          if (!rows[0].matches) continue;
          // The whole text is under 30 tokens: the snippet is all of it from its first token to its last.
          const expected = rows[0].marked.replace(/^[^\p{L}\p{N}\uE000]+|[^\p{L}\p{N}\uE001]+$/gu, '');
          assert.equal(shown(markedSnippet(text, wanted)), shown(expected), `${q} in text ${i + 1}`);
          compared++;
        }
      }
      assert.ok(compared >= 14, `${compared} compared`);
    });
  });
}
