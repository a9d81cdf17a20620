import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildProjectIndex, crawlProject, createProject, searchPath } from '../search/test-search.ts';
import { htmlPage } from '../testing/html-page.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { startTestSite, type TestSite } from '../testing/test-site.ts';

const TOKEN = 'metrics-token-of-some-length';

/** The value of one series of the exposition (`name{labels}`), or undefined when it has none. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

for (const dialect of testDialects()) {
  describe(`metrics (${dialect})`, () => {
    let t: TestServer;
    let site: TestSite;

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true });
      site = await startTestSite({
        pages: {
          '/': htmlPage({ path: '/', title: 'Lamps', body: '<p>Brass lamps and oil.</p>', links: [{ href: '/oil', text: 'Oil' }] }),
          '/oil': htmlPage({ path: '/oil', title: 'Lamp oil', body: '<p>Oil for every lamp.</p>', links: [] }),
        },
      });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    /** /metrics once `ready` holds of it: a request is counted once its answer is sent, which its client may see first. */
    async function metricsWhen(ready: (text: string) => boolean): Promise<string> {
      for (let attempt = 0; ; attempt++) {
        const answer = await t.request('GET', '/metrics', { key: null });
        assert.equal(answer.status, 200);
        if (ready(answer.body) || attempt === 50) return answer.body;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }

    it("serves Prometheus' text format with Node's own metrics, to anyone when no token is set", async () => {
      const answer = await t.request('GET', '/metrics', { key: null });
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      assert.match(answer.body, /^# HELP loupe_nodejs_heap_size_used_bytes /m);
      assert.match(answer.body, /^loupe_nodejs_eventloop_lag_p99_seconds \d/m);
    });

    it('times requests by route pattern and status, never by the ids in their path', async () => {
      const id = '01900000-0000-7000-8000-0000000000ff';
      assert.equal((await t.request('GET', `/api/v1/projects/${id}`)).status, 404);
      assert.equal((await t.request('GET', '/healthz', { key: null })).status, 200);
      const series = 'loupe_http_request_duration_seconds_count{method="GET",route="/api/v1/projects/:projectId",status="404"}';
      const text = await metricsWhen((body) => sample(body, series) !== undefined);
      assert.equal(sample(text, series), 1);
      assert.ok((sample(text, 'loupe_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}') ?? 0) >= 1);
      assert.doesNotMatch(text, new RegExp(id));
      assert.match(text, /^loupe_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/healthz",status="200"\} \d+$/m);
    });

    it('counts search answers kept from an earlier query apart from those ranked for it', async () => {
      const projectId = await createProject(t, site);
      await crawlProject(t, projectId);
      await buildProjectIndex(t, projectId);
      for (let i = 0; i < 3; i++) assert.equal((await t.request('GET', searchPath(projectId, 'lamp oil'))).status, 200);
      const text = await metricsWhen(() => true);
      assert.equal(sample(text, 'loupe_search_answers_total{source="ranked"}'), 1);
      assert.equal(sample(text, 'loupe_search_answers_total{source="kept"}'), 2);
    });
  });
}

describe('metrics behind a token', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer('sqlite', { metricsToken: TOKEN });
  });
  after(() => t.close());

  it('answers 401 without the token or with another, and the metrics with it', async () => {
    const without = await t.request('GET', '/metrics', { key: null });
    assert.equal(without.status, 401);
    assert.equal(without.body.code, 'unauthorized');
    assert.equal((await t.request('GET', '/metrics', { key: null, headers: { authorization: `Bearer ${TOKEN}x` } })).status, 401);
    assert.equal((await t.request('GET', '/metrics', { key: null, headers: { authorization: 'Bearer short' } })).status, 401);
    const granted = await t.request('GET', '/metrics', { key: null, headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(granted.status, 200);
    assert.match(granted.body, /^# TYPE loupe_http_request_duration_seconds histogram$/m);
  });
});
