import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type HeldSite, startHeldSite } from '../testing/held-site.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

for (const dialect of testDialects()) {
  describe(`event streams with nothing to say (${dialect})`, () => {
    let t: TestServer;
    let site: HeldSite;
    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true, eventHeartbeatMs: 50 });
      site = await startHeldSite();
    });
    after(async () => {
      site.release();
      await site.close();
      await t.close();
    });

    it('send a comment line now and then, which keeps proxies and clients from dropping them', async () => {
      // The start page is held: the crawl runs, and nothing about it changes until it is let go.
      const started = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), mode: 'page' } });
      assert.equal(started.status, 202);
      const response = await fetch(`${t.url}/api/v1/crawls/${started.body.id}/events`, {
        headers: { authorization: `Bearer ${t.owner.key}`, 'x-service-team': t.owner.workspaceId },
      });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (!/^:\n\n/m.test(text)) {
        const { value, done } = await reader.read();
        assert.ok(!done, `the stream ended before a heartbeat: ${text}`);
        text += value;
      }
      // The heartbeat is a comment: every event around it is still a whole `data:` block.
      for (const block of text.split('\n\n').filter((b) => b !== '' && b !== ':')) assert.match(block, /^data: \{.*\}$/);
      site.release();
      await reader.cancel();
    });
  });
}
