import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { locateJson } from './json-locations.ts';
import { jsonPath, packProblems } from './pack-problems.ts';

const text = JSON.stringify(
  {
    schema: 'loupe.rules/v1',
    name: 'house',
    rules: [
      { id: 'content/a', title: 'First' },
      { id: 'content/b', title: 'Second' },
      {
        id: 'images/c',
        title: 'Third',
        when: { all: [{ type: 'status' }, { type: 'selector', test: { op: 'count', cmp: { op: 'lt', value: 'x' } } }] },
      },
    ],
  },
  null,
  2,
);

function problemsOf(fieldErrors: Record<string, string[]>) {
  const parsed = locateJson(text);
  assert.ok(parsed.ok);
  return packProblems(fieldErrors, parsed.value, parsed.positions);
}

describe("the API's messages about a pack, placed at their rule and line", () => {
  it('names the rule by number, id and title, the field inside it, and its line', () => {
    const [problem] = problemsOf({ 'pack.rules.2.when.all.1.test.cmp.value': ['Expected a number.'] });
    assert.equal(problem!.where, 'Rule 3 · images/c (Third)');
    assert.equal(problem!.path, 'when.all[1].test.cmp.value');
    assert.equal(problem!.ruleIndex, 2);
    assert.deepEqual(problem!.messages, ['Expected a number.']);
    assert.equal(problem!.exact, true);
    assert.equal(text.split('\n')[problem!.position!.line - 1]!.trim(), '"value": "x"');
  });

  it('points a missing field at its rule', () => {
    const [problem] = problemsOf({ 'pack.rules.0.message': ['Required.'] });
    assert.equal(problem!.where, 'Rule 1 · content/a (First)');
    assert.equal(problem!.path, 'message');
    assert.equal(problem!.exact, false);
    assert.equal(text.split('\n')[problem!.position!.line - 1]!.trim(), '{');
  });

  it('keeps pack-level fields apart from rules, and leaves the form fields (name) to the form', () => {
    const problems = problemsOf({
      name: ['Too long.'],
      'pack.schema': ['Invalid input.'],
      pack: ['Required.'],
      'pack.rules.1.id': ['Taken.'],
    });
    assert.deepEqual(
      problems.map((problem) => [problem.where, problem.path]),
      [
        ['The pack', ''],
        ['The pack', 'schema'],
        ['Rule 2 · content/b (Second)', 'id'],
      ],
    );
  });

  it('names a rule the JSON does not have by its number alone', () => {
    const [problem] = problemsOf({ 'pack.rules.7.id': ['Bad.'] });
    assert.equal(problem!.where, 'Rule 8');
  });

  it('writes array indexes in brackets', () => {
    assert.equal(jsonPath(['when', 'any', '0', 'not', 'all', '12', 'selector']), 'when.any[0].not.all[12].selector');
    assert.equal(jsonPath(['0']), '[0]');
  });
});
