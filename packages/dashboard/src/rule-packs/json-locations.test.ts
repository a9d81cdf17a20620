import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { locateJson, nearestPosition } from './json-locations.ts';

const pack = `{
  "schema": "loupe.rules/v1",
  "rules": [
    {
      "id": "content/a",
      "when": { "all": [1, { "type": "metric" }] }
    }
  ]
}`;

function located(text: string) {
  const result = locateJson(text);
  assert.ok(result.ok, !result.ok ? result.message : '');
  return result;
}

describe('JSON with the place of each value', () => {
  it('parses what JSON.parse parses, to the same value', () => {
    for (const text of [pack, '[]', '{}', ' "\\u00e9\\n" ', '-1.5e3', 'true', 'null', '{"a":{"b":[[],{}]}}']) {
      assert.deepEqual(located(text).value, JSON.parse(text), text);
    }
  });

  it('places a member at its name and an array item at its start', () => {
    const { positions } = located(pack);
    assert.deepEqual(positions.get('schema'), { line: 2, column: 3 });
    assert.deepEqual(positions.get('rules.0'), { line: 4, column: 5 });
    assert.deepEqual(positions.get('rules.0.id'), { line: 5, column: 7 });
    assert.deepEqual(positions.get('rules.0.when.all.1'), { line: 6, column: 28 });
    assert.deepEqual(positions.get('rules.0.when.all.1.type'), { line: 6, column: 30 });
  });

  it('finds a missing field at the nearest value that holds it', () => {
    const { positions } = located(pack);
    assert.deepEqual(nearestPosition(positions, 'rules.0.when.all.1.metric'), { position: { line: 6, column: 28 }, exact: false });
    assert.deepEqual(nearestPosition(positions, 'rules.0.title'), { position: { line: 4, column: 5 }, exact: false });
    assert.deepEqual(nearestPosition(positions, 'rules.0.id'), { position: { line: 5, column: 7 }, exact: true });
  });

  it('says where a syntax error is, with a hint for a trailing comma and single quotes', () => {
    const trailing = locateJson('{\n  "a": 1,\n}');
    assert.ok(!trailing.ok);
    assert.deepEqual(trailing.position, { line: 3, column: 1 });
    assert.match(trailing.message, /comma too many/);
    const quoted = locateJson('{"a": \'b\'}');
    assert.ok(!quoted.ok);
    assert.match(quoted.message, /double quotes/);
    const unclosed = locateJson('{"a": "b}');
    assert.ok(!unclosed.ok);
    assert.deepEqual(unclosed.position, { line: 1, column: 7 });
    const extra = locateJson('{} {}');
    assert.ok(!extra.ok);
    assert.deepEqual(extra.position, { line: 1, column: 4 });
    const empty = locateJson('  ');
    assert.ok(!empty.ok);
    assert.match(empty.message, /ended/);
  });
});
