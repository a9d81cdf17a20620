import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { mulberry32 } from '../../testing/seeded-random.ts';
import { lexemeOf } from '../postgres/postgres-english.ts';
import { stemOf, wantedPhrases } from '../sqlite/sqlite-snippet.ts';
import { parsedQuery as query } from '../test-parsed-query.ts';
import { MARK_END, MARK_START } from './snippet-html.ts';
import { markedSnippet, prefixesOfWordsStemmedTo, type WantedPhrases } from './text-snippet.ts';
import { tokensOf } from './unicode61-tokens.ts';

const shown = (marked: string) => marked.replaceAll(MARK_START, '[').replaceAll(MARK_END, ']');
const snippet = (text: string, q: string) => shown(markedSnippet(text, wantedPhrases(query(q))));

/** FTS5 over the texts given, with the tokenizer the search index uses: highlight() marks what it matches. */
function highlighter(texts: string[]): (expression: string, text: number) => string | undefined {
  const db = new DatabaseSync(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')`);
  const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
  texts.forEach((text, i) => insert.run(i + 1, text));
  const highlight = db.prepare(`SELECT highlight(t, 0, ?, ?) AS h FROM t WHERE t MATCH ? AND rowid = ?`);
  return (expression, text) => (highlight.get(MARK_START, MARK_END, expression, BigInt(text + 1)) as { h: string } | undefined)?.h;
}

/** The FTS5 expression matching any of the phrases: what the snippet marks. */
const anyPhrase = (wanted: WantedPhrases) => wanted.phrases.map((phrase) => `"${phrase.join(' ')}"`).join(' OR ');

/**
 * The snippet the rule asks for, worked out over every token of the text (the way it was made
 * before snippets learnt to read only parts of a page): the first window of 30 tokens showing a
 * phrase of every group, the matches taken as they end; else the window with the most distinct
 * phrases, then the most matches, then the earliest; centred on its matches as the text allows.
 */
function ruledSnippet(text: string, wanted: WantedPhrases): { snippet: string; marks: Place[]; window: Place } {
  const { starts, ends, count } = tokensOf(text);
  if (count === 0) return { snippet: '', marks: [], window: { start: 0, end: 0 } };
  const stems = Array.from({ length: count }, (_, i) => stemOf(text.slice(starts[i], ends[i])));
  const matches: { from: number; to: number; phrase: number }[] = [];
  for (let i = 0; i < count; i++) {
    wanted.phrases.forEach((phrase, p) => {
      if (phrase.length > 0 && phrase.every((stem, k) => stems[i + k] === stem))
        matches.push({ from: i, to: i + phrase.length, phrase: p });
    });
  }
  let span: { from: number; to: number } | undefined;
  const lastStart = new Array<number>(wanted.groups).fill(-1);
  for (const match of [...matches].sort((a, b) => a.to - b.to || a.from - b.from)) {
    const group = wanted.groupOf[match.phrase];
    lastStart[group] = Math.max(lastStart[group], match.from);
    const earliest = Math.min(...lastStart);
    if (earliest >= 0 && match.to - earliest <= 30) {
      span = { from: earliest, to: match.to };
      break;
    }
  }
  if (!span && matches.length > 0) {
    let best = { score: -1, first: 0, last: 0 };
    for (let first = 0; first < matches.length; first++) {
      const inside = matches.slice(first).filter((m) => m.to <= matches[first].from + 30);
      const score = new Set(inside.map((m) => m.phrase)).size * 1000 + inside.length;
      if (score > best.score) best = { score, first, last: first + inside.length - 1 };
    }
    span = { from: matches[best.first].from, to: matches[Math.max(best.first, best.last)].to };
  }
  span ??= { from: 0, to: 0 };
  const from = Math.max(0, Math.min(span.from - Math.floor((30 - (span.to - span.from)) / 2), count - 30));
  const to = Math.min(count, from + 30);
  let out = from > 0 ? '…' : '';
  let at = starts[from];
  const marks: Place[] = [];
  for (const match of matches) {
    if (match.from < from || match.to > to || starts[match.from] < at) continue;
    out += `${text.slice(at, starts[match.from])}[${text.slice(starts[match.from], ends[match.to - 1])}]`;
    marks.push({ start: starts[match.from], end: ends[match.to - 1] });
    at = ends[match.to - 1];
  }
  out += text.slice(at, ends[to - 1]);
  return { snippet: to < count ? `${out}…` : out, marks, window: { start: starts[from], end: ends[to - 1] } };
}

/** Where a run of text starts and ends. */
interface Place {
  start: number;
  end: number;
}

/** Where highlight() put its marks, in the text's own places (overlapping matches under one mark). */
function highlightedPlaces(highlighted: string): Place[] {
  const places: Place[] = [];
  let plain = 0;
  let start = 0;
  for (const character of highlighted) {
    if (character === MARK_START) start = plain;
    else if (character === MARK_END) places.push({ start, end: plain });
    else plain += character.length;
  }
  return places;
}

describe('text snippets', () => {
  it('mark the words FTS5 matches: stems, any case, without diacritics, phrases as one', () => {
    assert.equal(snippet('Lanterns and a lantern, lanterned.', 'lanterns'), '[Lanterns] and a [lantern], [lanterned]');
    assert.equal(snippet('Un café crème au Café.', 'cafe'), 'Un [café] crème au [Café]');
    assert.equal(snippet('the red barn, a red car and a barn', '"red barn" car'), 'the [red barn], a red [car] and a barn');
    assert.equal(snippet('Ties tied tying', 'ties'), '[Ties] [tied] tying', 'Porter stems tying to ty');
    assert.equal(snippet('Ein Straßenbahn-Depot in Zürich', 'zurich straßenbahn'), 'Ein [Straßenbahn]-Depot in [Zürich]');
  });

  it('finds every word by the prefixes of the words stemmed to its stem, under either stemmer', () => {
    // Two- and three-letter roots with every suffix Porter or Porter2 rewrites: some 160,000 words.
    const letters = 'aeiouybclstnr';
    const suffixes = [
      '',
      's',
      'es',
      'ies',
      'sses',
      'ied',
      'ed',
      'eed',
      'ing',
      'ingly',
      'ly',
      'li',
      'y',
      'e',
      'at',
      'bl',
      'iz',
      'ational',
      'tional',
      'enci',
      'anci',
      'izer',
      'bli',
      'abli',
      'alli',
      'entli',
      'eli',
      'ousli',
      'ization',
      'ation',
      'ator',
      'alism',
      'iveness',
      'fulness',
      'ousness',
      'aliti',
      'iviti',
      'biliti',
      'bility',
      'logi',
      'fulli',
      'lessli',
      'icate',
      'ative',
      'alize',
      'iciti',
      'ical',
      'ful',
      'ness',
      'ement',
      'ment',
      'ent',
      'ism',
      'ate',
      'iti',
      'ous',
      'ive',
      'ize',
      'ance',
      'ence',
      'able',
      'ible',
      'ant',
      'al',
      'ic',
      'er',
      'ion',
      'll',
    ];
    const words = ['dying', 'lying', 'tying', 'skies', 'news', 'idly', 'gently', 'ugly', 'early', 'only', 'singly'];
    for (const a of letters)
      for (const b of letters) for (const c of ['', ...letters]) for (const suffix of suffixes) words.push(a + b + c + suffix);
    for (const stem of [stemOf, lexemeOf]) {
      const missed = words.filter((word) => !prefixesOfWordsStemmedTo(stem(word)).some((prefix) => word.startsWith(prefix)));
      assert.deepEqual(missed, [], stem === stemOf ? 'Porter' : 'Porter2');
    }
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
    // A group is shown from its latest start: "y" (token 11) rather than the phrase around it (from 10).
    const spanning = snippet(`${filler(0, 10)} x y z ${filler(13, 27)} w`, '"x y z" OR y w');
    assert.equal(spanning, `…[y] z ${filler(13, 27)} [w]`);
  });

  it('mark what FTS5 highlight() marks in the same text, on real prose', () => {
    const texts = [
      'Running runners ran; the runner runs daily, generalizations generally generalize.',
      'Connections connected: a connective conditionally conditioned relational rationale.',
      'Hopping hoped hopes — happiness, happily, happier; the sky skies.',
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
      'resume naive',
      'ecole',
      '"happily happier"',
    ];
    const highlight = highlighter(texts);
    let compared = 0;
    for (const q of questions) {
      const wanted = wantedPhrases(query(q));
      texts.forEach((text, i) => {
        const highlighted = highlight(anyPhrase(wanted), i);
        if (highlighted === undefined) return;
        // The whole text is under 30 tokens: the snippet is all of it from its first token to its last.
        const expected = highlighted.replace(/^[^\p{L}\p{N}\uE000]+|[^\p{L}\p{N}\uE001]+$/gu, '');
        assert.equal(shown(markedSnippet(text, wanted)), shown(expected), `${q} in text ${i + 1}`);
        compared++;
      });
    }
    assert.equal(compared, 11, 'every question matches a text');
  });

  it('choose and mark as the rule says on long random texts: the window counted over every token, the marks where highlight() puts them', () => {
    const random = mulberry32(11);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
    const vocabulary = [
      'lantern',
      'lanterns',
      'Lantern',
      'oil',
      'OILED',
      'café',
      'Cafe',
      'naïve',
      'run',
      'running',
      'ran',
      'the',
      'a',
      'barn',
      'red',
      '2024',
      'x1',
      'Straße',
      'déjà',
      '𝐀lpha',
      'İstanbul',
      'ﬁsh',
      'e\u0301t',
    ];
    const separators = [' ', ' ', ' ', ' ', ', ', '. ', ' — ', ' “', '” ', '’s ', '\n', ' 😀 ', '-'];
    const texts = Array.from({ length: 300 }, () => {
      let text = pick(vocabulary);
      for (let i = 1 + Math.floor(random() * 150); i > 0; i--) text += pick(separators) + pick(vocabulary);
      return text;
    });
    const highlight = highlighter(texts);
    let compared = 0;
    let marks = 0;
    texts.forEach((text, i) => {
      const words = text.split(/[^\p{L}\p{N}\p{M}]+/u).filter(Boolean);
      const at = Math.floor(random() * (words.length - 1));
      const q = pick([
        () => pick(vocabulary),
        () => `${pick(vocabulary)} ${pick(vocabulary)}`,
        () => `${pick(vocabulary)} OR ${pick(vocabulary)}`,
        () => `${pick(vocabulary)} ${pick(vocabulary)} ${pick(vocabulary)}`,
        () => `"${words[at]} ${words[at + 1] ?? words[at]}"`,
        // A phrase spanning a word of its own group: the group is shown from the later start.
        () =>
          `"${words[at]} ${words[at + 1] ?? words[at]} ${words[at + 2] ?? words[at]}" OR ${words[at + 1] ?? words[at]} ${pick(vocabulary)}`,
      ])();
      const wanted = wantedPhrases(query(q));
      const ruled = ruledSnippet(text, wanted);
      assert.equal(shown(markedSnippet(text, wanted)), ruled.snippet, `${q} in text ${i + 1}`);
      const highlighted = highlight(anyPhrase(wanted), i);
      const highlights = highlighted === undefined ? [] : highlightedPlaces(highlighted);
      const within = (inner: Place, outer: Place) => outer.start <= inner.start && inner.end <= outer.end;
      for (const mark of ruled.marks)
        assert.ok(
          highlights.some((place) => within(mark, place)),
          `${q} in text ${i + 1}: marked where highlight() marks`,
        );
      for (const place of highlights.filter((place) => within(place, ruled.window))) {
        assert.ok(
          ruled.marks.some((mark) => mark.start < place.end && place.start < mark.end),
          `${q} in text ${i + 1}: what highlight() marks is marked`,
        );
      }
      compared++;
      marks += ruled.marks.length;
    });
    assert.equal(compared, 300);
    assert.ok(marks > 300, `marks made: ${marks}`);
  });
});
