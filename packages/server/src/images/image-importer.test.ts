import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../testing/test-dialects.ts';
import { readTestImage } from '../testing/test-images.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

for (const dialect of testDialects()) {
  describe(`image import from a URL (${dialect})`, () => {
    let t: TestServer;
    let site: Server;
    let projectId: string;
    /** Resolves when the source sees the import's connection closed, mid-answer. */
    let trickleClosed: Promise<void>;
    const trickles: ServerResponse[] = [];

    before(async () => {
      t = await startTestServer(dialect, { crawlAllowPrivate: true, importTimeoutSeconds: 1 });
      projectId = (await t.request('POST', '/api/images/projects', { body: { name: 'Imports' } })).body.id;
      const rocket = await readTestImage('rocket.jpg');
      let closed: () => void = () => {};
      trickleClosed = new Promise((resolve) => (closed = resolve));
      site = createServer((request, response) => {
        if (request.url === '/trickle.jpg') {
          // One byte every 100 ms, 60 in all: each gap is short, the whole answer takes 6 s.
          response.writeHead(200, { 'content-type': 'image/jpeg' });
          trickles.push(response);
          let sent = 0;
          const timer = setInterval(() => {
            response.write(rocket.subarray(sent, sent + 1));
            if (++sent === 60) response.end();
          }, 100);
          response.on('close', () => {
            clearInterval(timer);
            if (sent < 60) closed();
          });
          return;
        }
        if (request.url === '/to-bad-escape') return response.writeHead(302, { location: '/photos/%E0.jpg' }).end();
        response.writeHead(200, { 'content-type': 'image/jpeg' }).end(rocket);
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      for (const response of trickles) response.destroy();
      site.close();
      await t.close();
    });
    const siteUrl = (path: string) => `http://127.0.0.1:${(site.address() as AddressInfo).port}${path}`;
    const importFrom = (url: string, path?: string) =>
      t.request('POST', `/api/images/projects/${projectId}/images`, { body: { url, ...(path ? { path } : {}) } });

    it('refuses a URL whose file name is a malformed percent escape with 400, not 500', async () => {
      const answer = await importFrom(siteUrl('/photos/%E0.png'));
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'validation_failed');
      assert.match(answer.body.details.fieldErrors.url[0], /percent/);
    });

    it('refuses a redirect to such a URL with 400', async () => {
      const answer = await importFrom(siteUrl('/to-bad-escape'));
      assert.equal(answer.status, 400);
      assert.match(answer.body.details.fieldErrors.url[0], /percent/);
    });

    it('decodes a well-formed escape into the file name', async () => {
      const answer = await importFrom(siteUrl('/photos/caf%C3%A9.jpg'));
      assert.equal(answer.status, 201);
      assert.equal(answer.body.path, 'café.jpg');
    });

    it('gives up on a source that trickles its answer once the import deadline passes', async () => {
      const answer = await importFrom(siteUrl('/trickle.jpg'));
      assert.equal(answer.status, 400);
      assert.equal(answer.body.code, 'validation_failed');
      assert.match(answer.body.details.fieldErrors.url[0], /within 1 second/);
      await trickleClosed;
    });
  });
}
