import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type OperationDefinition, operations } from '@loupe/contract';
import { generatedSite } from '../testing/fixture-sites.ts';
import { baseBody, baseQuery } from '../testing/fuzz-base.ts';
import { type FuzzCase, fuzzCases } from '../testing/fuzz-cases.ts';
import { createFuzzFixtures, type FuzzWorkspace, type KnownBodies } from '../testing/fuzz-fixtures.ts';
import { errorBodyProblem, runFuzzCases } from '../testing/fuzz-run.ts';
import { type RawAnswer, rawRequest } from '../testing/raw-request.ts';
import { mulberry32 } from '../testing/seeded-random.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

/**
 * Issue #22: generated bad input to every operation of the registry, so each new operation is
 * fuzzed without anyone listing it. Replay a run with LOUPE_FUZZ_SEED (the default is fixed).
 */
const SEED = Number(process.env.LOUPE_FUZZ_SEED ?? 22);
const UNSAFE_NAME = /^Must not contain control characters or invisible formatting characters/;

const registry = operations as readonly OperationDefinition[];
// Deletions last, so the resources they remove serve every other operation first.
const ordered = [
  ...registry.filter((operation) => operation.method !== 'DELETE'),
  ...registry.filter((operation) => operation.method === 'DELETE'),
];

/** What is wrong with an answer, or undefined. */
function problemWith(answer: RawAnswer, fuzz: FuzzCase): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}`;
  const problem = errorBodyProblem(answer);
  if (problem) return problem;
  if (fuzz.refusesField) {
    const messages =
      (JSON.parse(answer.text) as { details?: { fieldErrors?: Record<string, string[]> } }).details?.fieldErrors?.[fuzz.refusesField] ?? [];
    if (answer.status !== 400 || !messages.some((message) => UNSAFE_NAME.test(message)))
      return `did not refuse the name in ${fuzz.refusesField}`;
  }
  return undefined;
}

for (const dialect of testDialects()) {
  describe(`every operation under fuzzed input (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let own: FuzzWorkspace;
    let foreign: FuzzWorkspace;
    let known: KnownBodies;
    let sent = 0;
    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      site = await startTestSite(generatedSite(5), { record: false });
      ({
        workspaces: [own, foreign],
        known,
      } = await createFuzzFixtures(t, site.url('/')));
    });
    after(async () => {
      await t.close();
      await site.close();
    });

    for (const [index, operation] of ordered.entries()) {
      it(`${operation.id} answers every bad input with a 4xx error body, never a 5xx`, async () => {
        const siteUrl = site.url('/');
        const random = mulberry32(SEED + index);
        const cases = fuzzCases({
          operation,
          own,
          foreign,
          body: baseBody(operation, known, own, siteUrl),
          query: baseQuery(operation, own, siteUrl),
          random,
        });
        const failures = await runFuzzCases(t.url, cases, problemWith, operation.id);
        sent += cases.length;
        assert.equal(failures.length, 0, `seed ${SEED}, ${failures.length} of ${cases.length} cases:\n${failures.join('\n')}`);
      });
    }

    it('is still healthy after the whole pass', async (context) => {
      const answer = await rawRequest(t.url, { method: 'GET', path: '/healthz' });
      assert.equal(answer.status, 200);
      context.diagnostic(`${sent} fuzzed requests over ${registry.length} operations (seed ${SEED})`);
    });
  });
}
