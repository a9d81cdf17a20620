import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sessionPaths } from '@loupe/contract';
import { addPasswordMember, signIn } from '../sessions/test-session.ts';
import { generatedSite } from '../testing/fixture-sites.ts';
import { createFuzzFixtures } from '../testing/fuzz-fixtures.ts';
import { errorBodyProblem, runFuzzCases } from '../testing/fuzz-run.ts';
import { ALL_TOOLS_PATH, type ListedTool, mcpAnswerProblem, mcpProtocolCases, mcpToolCases } from '../testing/mcp-fuzz-cases.ts';
import { type RawAnswer, rawRequest } from '../testing/raw-request.ts';
import {
  cdnCases,
  customDomainCases,
  dashboardCases,
  docsCases,
  healthCases,
  parserCases,
  type RouteCase,
  type RouteFixtures,
  sessionCases,
  setupCases,
  sharePageCases,
  uploadTargetCases,
} from '../testing/route-fuzz-cases.ts';
import { mulberry32 } from '../testing/seeded-random.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage, uploadForm } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';
import { targetFingerprints } from '../testing/traversal-cases.ts';

/**
 * Issue #22: generated bad input to the routes written by hand, outside the operation registry
 * (fuzz-operations.test.ts covers the registry's): sessions and the first run, the upload
 * target, the CDN and custom domains, shared report pages, /mcp and each of its tools, health,
 * metrics, the API's docs and the dashboard's files. Replay a run with LOUPE_FUZZ_SEED.
 */
const SEED = Number(process.env.LOUPE_FUZZ_SEED ?? 22);
const METRICS_TOKEN = 'fuzz-metrics-token-22';

/** Not a 5xx; no line of a file outside the served folders; then what the route answers (RouteCase.answers). */
function problemWith(answer: RawAnswer, fuzz: RouteCase): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}`;
  const leaked = targetFingerprints().find((fingerprint) => answer.text.includes(fingerprint.text));
  if (leaked) return `leaked ${leaked.file}`;
  if (fuzz.answers === 'mcp') return mcpAnswerProblem(answer, fuzz.request.method);
  // HEAD answers carry no body to check.
  if (fuzz.request.method === 'HEAD') return undefined;
  if (fuzz.answers === 'page' && answer.contentType.startsWith('text/html')) return undefined;
  return errorBodyProblem(answer);
}

async function uploadImage(t: TestServer, key: string, projectId: string, path: string): Promise<void> {
  const form = uploadForm({ name: 'tiny.gif', data: await readTestImage('no_time_for_that_tiny.gif'), type: 'image/gif' }, { path });
  const answer = await fetch(`${t.url}/api/images/projects/${projectId}/images`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  assert.equal(answer.status, 201, await answer.text());
}

/** Beyond the registry fuzz's fixtures: the project's slug and custom domain, a signed-only project, a live upload slot, a session. */
async function routeFixtures(t: TestServer, siteUrl: string): Promise<RouteFixtures> {
  const {
    workspaces: [own, foreign],
  } = await createFuzzFixtures(t, siteUrl);
  const images = (path: string, method = 'GET', body?: unknown) => t.request(method, `/api/images/projects${path}`, { key: own.key, body });
  const domain = 'fuzz-images.example.test';
  const project = await images(`/${own.ids.imageProjectId}`, 'PATCH', { customDomain: domain });
  assert.equal(project.status, 200, JSON.stringify(project.body));
  const signed = await images('', 'POST', { name: 'Signed only' });
  await images(`/${signed.body.id}/signing`, 'POST', { requireSignedUrls: true });
  await uploadImage(t, own.key, signed.body.id, 'tiny.gif');
  const signedUrl = await images(`/${signed.body.id}/signing`, 'PUT', { path: 'tiny.gif', params: { w: 32 }, expiresIn: 3600 });
  const slot = await images(`/${own.ids.imageProjectId}/images/upload`, 'POST', { path: 'staged/fuzz.gif' });
  assert.equal(slot.status, 201, JSON.stringify(slot.body));
  const email = await addPasswordMember(t, own.workspaceId, own.key, 'member');
  const session = await signIn(t, email);
  const url = new URL(signedUrl.body.url);
  return {
    own,
    foreign,
    slug: project.body.slug,
    imagePath: 'tiny.gif',
    domain,
    signedSlug: signed.body.slug,
    signedUrl: url.pathname + url.search,
    uploadToken: new URL(slot.body.uploadUrl).pathname.split('/').at(-1)!,
    metricsToken: METRICS_TOKEN,
    session,
  };
}

for (const dialect of testDialects()) {
  describe(`the routes outside the registry under fuzzed input (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;
    let fixtures: RouteFixtures;
    let sent = 0;
    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true, metricsToken: METRICS_TOKEN });
      site = await startTestSite(generatedSite(3), { record: false });
      fixtures = await routeFixtures(t, site.url('/'));
      assert.ok(targetFingerprints().length >= 3, 'too few files outside the served folders to look for in answers');
    });
    after(async () => {
      await t.close();
      await site.close();
    });

    const random = (group: number) => mulberry32(SEED * 1000 + group);
    const caller = () => ({ key: fixtures.own.key, workspaceId: fixtures.own.workspaceId });

    /** What each test sends: made when it runs, after the fixtures and the tests before it. */
    const groups: { title: string; name: string; cases: () => RouteCase[] | Promise<RouteCase[]> }[] = [
      {
        title: 'the first run (/api/setup) answers bad input with the error body, never a 5xx',
        name: 'setup, to do',
        cases: () => setupCases(random(1)),
      },
      {
        title: 'a finished first run answers bad input with the error body, never a 5xx',
        name: 'setup, done',
        cases: async () => {
          await t.request('POST', sessionPaths.setup, {
            key: null,
            body: { name: 'Fuzz Owner', email: 'fuzz-owner@example.test', password: 'fuzz password 22' },
          });
          assert.equal((await t.request('GET', sessionPaths.setup, { key: null })).body.needed, false);
          return setupCases(random(2));
        },
      },
      {
        title: 'signing in, out and "who is signed in" answer bad input with the error body, never a 5xx',
        name: 'session',
        cases: () => sessionCases(fixtures, random(3)),
      },
      {
        title: 'the upload target (PUT /api/images/uploads/:token) answers bad input with the error body, never a 5xx',
        name: 'upload target',
        cases: () => uploadTargetCases(fixtures, random(4)),
      },
      {
        title: 'the CDN answers bad paths, queries, signatures and headers with the error body, never a 5xx',
        name: 'cdn',
        cases: () => cdnCases(fixtures, random(5)),
      },
      {
        title: 'a custom domain answers bad paths and Host headers with the error body, never a 5xx',
        name: 'custom domain',
        cases: () => customDomainCases(fixtures, random(6)),
      },
      {
        title: 'the shared report page answers bad tokens with a page or the error body, never a 5xx',
        name: 'share page',
        cases: () => sharePageCases(fixtures, random(7)),
      },
      {
        title: '/healthz, /readyz and /metrics answer bad input with the error body, never a 5xx',
        name: 'health',
        cases: () => healthCases(fixtures, random(8)),
      },
      {
        title: '/api/openapi.json and /api/docs answer bad input without a 5xx or a file from outside Swagger UI',
        name: 'docs',
        cases: () => docsCases(random(9)),
      },
      {
        title: "the dashboard's files answer climbing paths, NUL bytes and long paths without a file from outside its build",
        name: 'dashboard',
        cases: () => dashboardCases(random(10)),
      },
      {
        title: '/mcp answers malformed JSON-RPC with JSON-RPC errors, never an internal error or a 5xx',
        name: 'mcp',
        cases: () => mcpProtocolCases(caller(), { foreignKey: fixtures.foreign.key, viewerKey: fixtures.own.viewerKey }, random(11)),
      },
      {
        title: 'every MCP tool answers bad arguments with a tool error carrying the error body, never an internal error',
        name: 'mcp tools',
        cases: async () => {
          const listed = await rawRequest(t.url, {
            method: 'POST',
            path: ALL_TOOLS_PATH,
            headers: {
              authorization: `Bearer ${caller().key}`,
              'x-service-team': caller().workspaceId,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          });
          const tools = (JSON.parse(listed.text) as { result: { tools: ListedTool[] } }).result.tools;
          assert.ok(tools.length > 50, `tools/list listed ${tools.length} tools`);
          return mcpToolCases(tools, caller(), random(12));
        },
      },
      { title: "requests Node's HTTP parser refuses are answered with the error body", name: 'parser', cases: () => parserCases(fixtures) },
    ];

    for (const group of groups) {
      it(group.title, async () => {
        const cases = await group.cases();
        const failures = await runFuzzCases(t.url, cases, problemWith, group.name);
        sent += cases.length;
        assert.equal(failures.length, 0, `seed ${SEED}, ${failures.length} of ${cases.length} cases:\n${failures.join('\n')}`);
      });
    }

    it('is still healthy after the whole pass', async (context) => {
      assert.equal((await rawRequest(t.url, { method: 'GET', path: '/healthz' })).status, 200);
      context.diagnostic(`${sent} fuzzed requests to the routes outside the registry (seed ${SEED})`);
    });
  });
}
