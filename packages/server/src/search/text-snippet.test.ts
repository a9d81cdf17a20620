import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { parseSearchQuery, type SearchQuery } from '@loupe/contract';
import { MARK_END, MARK_START } from './snippet-html.ts';
import { markedSnippet, wantedPhrases } from './text-snippet.ts';

const query = (text: string): SearchQuery => {
  const parsed = parseSearchQuery(text);
  assert.ok(parsed.ok, text);
  return parsed.query;
};
const shown = (marked: string) => marked.replaceAll(MARK_START, '[').replaceAll(MARK_END, ']');
const snippet = (text: string, q: string) => shown(markedSnippet(text, wantedPhrases(query(q))));

describe('text snippets', () => {
  it('mark the words FTS5 matches: stems, any case, without diacritics, phrases as one', () => {
    assert.equal(snippet('Lanterns and a lantern, lanterned.', 'lanterns'), '[Lanterns] and a [lantern], [lanterned]');
    assert.equal(snippet('Un café crème au Café.', 'cafe'), 'Un [café] crème au [Café]');
    assert.equal(snippet('the red barn, a red car and a barn', '"red barn" car'), 'the [red barn], a red [car] and a barn');
    assert.equal(snippet('Ties tied tying', 'ties'), '[Ties] [tied] tying', 'Porter stems tying to ty');
    assert.equal(snippet('Ein Straßenbahn-Depot in Zürich', 'zurich straßenbahn'), 'Ein [Straßenbahn]-Depot in [Zürich]');
  });

  it('mark words whose stem ends otherwise than they do, and no word merely starting alike', () => {
    assert.equal(snippet('She says so; he said it.', 'say'), 'She [says] so; he said it');
    assert.equal(snippet('Relations, relational and relatively so.', 'relation'), '[Relations], [relational] and relatively so');
    assert.equal(snippet('A sensible sensibility, sensed.', 'sensibly'), 'A [sensible] [sensibility], sensed');
  });

  it('leave out what is excluded, and start the text when nothing of it matches (a match in the title)', () => {
    assert.equal(snippet('Cats and dogs.', 'cats -dogs'), '[Cats] and dogs');
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    assert.equal(snippet(words, 'absent'), `${Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ')}…`);
    assert.equal(snippet('', 'absent'), '');
  });

  it('hold 30 tokens around the window with the most distinct words, marked with ellipses where the text goes on', () => {
    const filler = (from: number, count: number) => Array.from({ length: count }, (_, i) => `f${from + i}`).join(' ');
    // "alpha" early alone; "alpha" and "beta" together later: the later window wins.
    const text = `${filler(0, 5)} alpha ${filler(100, 60)} alpha beta ${filler(200, 60)}`;
    const out = snippet(text, 'alpha beta');
    assert.match(out, /^….* \[alpha\] \[beta\] .*…$/);
    assert.equal(out.replace(/^…|…$/g, '').split(/\s+/).length, 30);
    const tokensBefore = out.slice(1, out.indexOf('[alpha]')).trim().split(/\s+/).length;
    assert.ok(tokensBefore >= 12 && tokensBefore <= 16, `centred: ${tokensBefore} tokens before`);
  });

  it('show the first window holding a term of every group, however many matches a later one holds', () => {
    const filler = (from: number, count: number) => Array.from({ length: count }, (_, i) => `f${from + i}`).join(' ');
    const text = `${filler(0, 40)} beta alpha ${filler(100, 40)} alpha beta alpha beta alpha ${filler(200, 40)}`;
    const out = snippet(text, 'alpha beta');
    assert.match(out, /^…f2\d f2\d .* \[beta\] \[alpha\] f100 .*…$/);
    assert.equal((out.match(/\[/g) ?? []).length, 2, out);
    // Either word of an OR group shows the group: the first "beta" is enough.
    assert.match(snippet(`${filler(0, 40)} beta ${filler(100, 40)} alpha`, 'alpha OR beta'), /\[beta\] f100/);
    // A group the text lacks (a match in the title): the window with the most of the others.
    const lacking = snippet(`${filler(0, 40)} alpha ${filler(100, 40)} alpha alpha ${filler(200, 40)}`, 'alpha gamma');
    assert.match(lacking, /\[alpha\] \[alpha\]/);
    assert.equal((lacking.match(/\[/g) ?? []).length, 2, lacking);
  });

  it('mark what FTS5 highlight() marks in the same text, on real prose', () => {
    const db = new DatabaseSync(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')`);
    const texts = [
      'Running runners ran; the runner runs daily, generalizations generally generalize.',
      'Connections connected: a connective conditionally conditioned relational rationale.',
      'Hopping hoped hopes — happiness, happily, happier; the sky skies.',
      'Naïve résumé of a coöperative façade: déjà vu, ÉCOLE école.',
    ];
    const questions = ['run', 'runners daily', 'generalization', 'connect', 'condition relation', 'hope', 'happy', 'sky', 'resume naive', 'ecole', '"happily happier"'];
    const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
    texts.forEach((text, i) => insert.run(i + 1, text));
    const highlight = db.prepare(`SELECT highlight(t, 0, ?, ?) AS h FROM t WHERE t MATCH ? AND rowid = ?`);
    let compared = 0;
    for (const q of questions) {
      const wanted = wantedPhrases(query(q));
      const expression = wanted.phrases.map((phrase) => `"${phrase.join(' ')}"`).join(' OR ');
      texts.forEach((text, i) => {
        const row = highlight.get(MARK_START, MARK_END, expression, BigInt(i + 1)) as { h: string } | undefined;
        if (!row) return;
        // The whole text is under 30 tokens: the snippet is all of it from its first token to its last.
        const expected = row.h.replace(/^[^\p{L}\p{N}\uE000]+|[^\p{L}\p{N}\uE001]+$/gu, '');
        assert.equal(shown(markedSnippet(text, wanted)), shown(expected), `${q} in text ${i + 1}`);
        compared++;
      });
    }
    assert.equal(compared, 11, "every question matches a text");
  });
});
