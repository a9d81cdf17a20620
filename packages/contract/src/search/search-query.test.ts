import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSearchQuery, type SearchQuery, SearchText } from './search-query.ts';

const word = (text: string) => ({ text, quoted: false });
const phrase = (text: string) => ({ text, quoted: true });

function parsed(text: string): SearchQuery {
  const result = parseSearchQuery(text);
  assert.ok(result.ok, `${text}: ${!result.ok && result.message}`);
  return result.query;
}

function refused(text: string): string {
  const result = parseSearchQuery(text);
  assert.ok(!result.ok, `${text} was accepted`);
  return result.message;
}

describe('search query syntax', () => {
  it('reads words as all required', () => {
    assert.deepEqual(parsed('  brass   lanterns '), { required: [[word('brass')], [word('lanterns')]], excluded: [] });
  });

  it('reads a quoted phrase as one term, spaces collapsed, and an unclosed quote to the end', () => {
    assert.deepEqual(parsed('"quiet   harbour" lights'), { required: [[phrase('quiet harbour')], [word('lights')]], excluded: [] });
    assert.deepEqual(parsed('lights "quiet harbour'), { required: [[word('lights')], [phrase('quiet harbour')]], excluded: [] });
  });

  it('reads -word and -"phrase" as exclusions, and a hyphen inside a word as part of it', () => {
    assert.deepEqual(parsed('lantern -kettle -"copper pot" e-mail'), {
      required: [[word('lantern')], [word('e-mail')]],
      excluded: [word('kettle'), phrase('copper pot')],
    });
  });

  it('binds OR to the terms on each side of it, and only in capitals', () => {
    assert.deepEqual(parsed('guide postgres OR sqlite OR "my sql"'), {
      required: [[word('guide')], [word('postgres'), word('sqlite'), phrase('my sql')]],
      excluded: [],
    });
    assert.deepEqual(parsed('cats or dogs'), { required: [[word('cats')], [word('or')], [word('dogs')]], excluded: [] });
  });

  it('ignores an OR with nothing to join on one side', () => {
    assert.deepEqual(parsed('OR cats OR'), { required: [[word('cats')]], excluded: [] });
    assert.deepEqual(parsed('cats OR -dogs'), { required: [[word('cats')]], excluded: [word('dogs')] });
    assert.deepEqual(parsed('-dogs OR cats'), { required: [[word('cats')]], excluded: [word('dogs')] });
  });

  it('drops terms without a letter or digit, which match nothing', () => {
    assert.deepEqual(parsed('cats - & "" "..." -!'), { required: [[word('cats')]], excluded: [] });
  });

  it('keeps characters that mean something to a search engine as plain text', () => {
    assert.deepEqual(parsed('title:x NEAR(a b) * ^c'), {
      required: [[word('title:x')], [word('NEAR(a')], [word('b)')], [word('^c')]],
      excluded: [],
    });
  });

  it('refuses an empty query, and one of exclusions alone', () => {
    assert.match(refused(''), /at least one word/);
    assert.match(refused('   '), /at least one word/);
    assert.match(refused('OR'), /at least one word/);
    assert.match(refused('-kettle -"copper pot"'), /exclusions alone/);
  });

  it('takes 32 terms and refuses 33', () => {
    const terms = Array.from({ length: 33 }, (_, i) => `w${i}`);
    assert.equal(parsed(terms.slice(0, 32).join(' ')).required.length, 32);
    assert.match(refused(terms.join(' ')), /At most 32/);
    assert.match(refused(`${terms.slice(0, 30).join(' ')} -a -b -c`), /At most 32/);
  });

  it('checks the length in the q schema: 256 characters pass, 257 do not', () => {
    assert.equal(SearchText.safeParse('a'.repeat(256)).success, true);
    assert.equal(SearchText.safeParse('a'.repeat(257)).success, false);
    assert.equal(SearchText.safeParse('-only').success, false);
  });
});
