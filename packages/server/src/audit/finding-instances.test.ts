import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { instanceColumns, keptInstances, MAX_INSTANCES, storedInstances } from './finding-instances.ts';
import { verdict } from './page-rules/verdict.ts';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `/img/${i}.png`);

describe('a finding keeps every instance', () => {
  it('keeps three or fewer as samples only, and stores no rest', () => {
    assert.deepEqual(keptInstances([]), { samples: [] });
    assert.deepEqual(keptInstances(numbered(3)), { samples: numbered(3) });
    assert.deepEqual(instanceColumns(keptInstances(numbered(3))), { samples: JSON.stringify(numbered(3)), more_instances: null });
  });

  it('keeps forty as three samples and thirty-seven more, stored and read back in order', () => {
    const found = verdict(numbered(40));
    assert.equal(found?.count, 40);
    assert.deepEqual(found?.samples, numbered(3));
    assert.equal(found?.more?.length, 37);
    assert.deepEqual(storedInstances(instanceColumns(found!)), numbered(40));
  });

  it('keeps at most MAX_INSTANCES while the count stays the true count', () => {
    const found = verdict(numbered(MAX_INSTANCES + 1));
    assert.equal(found?.count, MAX_INSTANCES + 1);
    assert.equal(found!.samples.length + found!.more!.length, MAX_INSTANCES);
    assert.equal(found?.more?.at(-1), `/img/${MAX_INSTANCES - 1}.png`);
  });

  it('shortens each instance as samples are, counting code points', () => {
    const long = `/${'é'.repeat(300)}`;
    const [sample] = keptInstances([long]).samples;
    assert.equal([...(sample as string)].length, 160);
    assert.ok(sample?.endsWith('…'));
    const [rest] = keptInstances([...numbered(3), long]).more ?? [];
    assert.equal([...(rest as string)].length, 160);
  });
});
