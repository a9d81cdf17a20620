import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AlertDelivery, AlertEvent } from '@loupe/contract';
import { testDialects } from '../testing/test-dialects.ts';
import { nextPage, startTestServer, type TestServer } from '../testing/test-server.ts';
import { MAX_ALERT_ATTEMPTS } from './alert-deliverer.ts';
import { settled, waitForDeliveries } from './test-deliveries.ts';
import { startTestSmtpServer, type TestSmtpServer } from './test-smtp-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from './test-webhook-receiver.ts';

for (const dialect of testDialects()) {
  describe(`alert deliveries (${dialect})`, () => {
    let t: TestServer;
    let smtp: TestSmtpServer;
    let receiver: WebhookReceiver;

    before(async () => {
      smtp = await startTestSmtpServer();
      receiver = await startWebhookReceiver();
      t = await startTestServer(dialect, {
        crawlAllowPrivate: true,
        smtpUrl: smtp.url,
        smtpFrom: 'Loupe <alerts@loupe.test>',
        alertRetryBaseMs: 20,
      });
    });
    after(async () => {
      await t.close();
      await receiver.close();
      await smtp.close();
    });

    /** A project whose only channel is this one; answers its id and the saved channel (with a generated secret). */
    async function projectWith(channel: Record<string, unknown>, name = 'Docs') {
      const project = await t.request('POST', '/api/v1/projects', { body: { name, siteUrl: 'https://docs.example.com/' } });
      const saved = await t.request('PUT', `/api/v1/projects/${project.body.id}/alerts`, {
        body: { enabled: false, conditions: {}, channels: [channel] },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      return { projectId: project.body.id as string, channel: saved.body.channels[0] };
    }

    async function sendTest(projectId: string): Promise<AlertDelivery[]> {
      const answer = await t.request('POST', `/api/v1/projects/${projectId}/alerts/test`);
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      return answer.body;
    }

    const receivedFor = (deliveryId: string) => receiver.received.filter((request) => request.headers['loupe-delivery'] === deliveryId);

    describe('webhooks', () => {
      it('POSTs a signed JSON test alert, retries after a 500 and is delivered on the 200', async () => {
        const { projectId, channel } = await projectWith({ type: 'webhook', url: receiver.url('/retry') });
        receiver.secret = channel.secret;
        receiver.script = [500];
        const [queued] = await sendTest(projectId);
        assert.equal(queued.test, true);
        assert.deepEqual(queued.channel, { id: channel.id, type: 'webhook', target: receiver.url('/retry') });

        const [delivery] = await waitForDeliveries(t, projectId, settled(1));
        assert.equal(delivery.status, 'delivered');
        assert.equal(delivery.attempts, 2);
        assert.equal(delivery.responseStatus, 200);
        assert.equal(delivery.lastError, null);
        assert.ok(delivery.deliveredAt);

        const requests = receivedFor(delivery.id);
        assert.deepEqual(
          requests.map((request) => [request.answered, request.signatureValid]),
          [
            [500, true],
            [200, true],
          ],
        );
        assert.equal(requests[0].body, requests[1].body, 'a retry sends the same body');
        const [request] = requests;
        assert.equal(request.path, '/retry');
        assert.equal(request.headers['content-type'], 'application/json');
        assert.match(request.headers['user-agent'] ?? '', /^Loupe-Webhook\//);
        const event = JSON.parse(request.body) as AlertEvent;
        assert.equal(event.event, 'crawl.alert');
        assert.equal(event.deliveryId, delivery.id);
        assert.equal(event.test, true);
        assert.deepEqual(event.project, { id: projectId, name: 'Docs', siteUrl: 'https://docs.example.com/' });
        assert.equal(event.crawl, null);
        assert.equal(event.report, null);
        assert.deepEqual(event.conditions, []);
      });

      it('retries a 429 and a 503 like a 500', async () => {
        const { projectId, channel } = await projectWith({ type: 'webhook', url: receiver.url('/busy') });
        receiver.secret = channel.secret;
        receiver.script = [429, 503];
        await sendTest(projectId);
        const [delivery] = await waitForDeliveries(t, projectId, settled(1));
        assert.equal(delivery.status, 'delivered');
        assert.equal(delivery.attempts, 3);
        assert.deepEqual(
          receivedFor(delivery.id).map((request) => request.answered),
          [429, 503, 200],
        );
      });

      it('retries a receiver that refuses connections, then fails saying why', async () => {
        const closed = await startWebhookReceiver();
        const url = closed.url('/nobody-home');
        await closed.close();
        const { projectId } = await projectWith({ type: 'webhook', url });
        await sendTest(projectId);
        const [delivery] = await waitForDeliveries(t, projectId, settled(1));
        assert.equal(delivery.status, 'failed');
        assert.equal(delivery.attempts, MAX_ALERT_ATTEMPTS);
        assert.equal(delivery.responseStatus, null);
        assert.match(delivery.lastError ?? '', /^No answer: .*ECONNREFUSED/);
      });

      it('fails at once on a 4xx, keeping the status and the start of the answer', async () => {
        const { projectId, channel } = await projectWith({ type: 'webhook', url: receiver.url('/gone') });
        receiver.secret = channel.secret;
        receiver.script = [410];
        await sendTest(projectId);
        const [delivery] = await waitForDeliveries(t, projectId, settled(1));
        assert.equal(delivery.status, 'failed');
        assert.equal(delivery.attempts, 1);
        assert.equal(delivery.responseStatus, 410);
        assert.equal(delivery.lastError, 'HTTP 410: refused with 410');
        assert.equal(delivery.nextAttemptAt, null);
      });

      it(`gives up after ${MAX_ALERT_ATTEMPTS} attempts of a receiver that keeps failing`, async () => {
        const { projectId, channel } = await projectWith({ type: 'webhook', url: receiver.url('/down') });
        receiver.secret = channel.secret;
        receiver.script = Array.from({ length: MAX_ALERT_ATTEMPTS + 2 }, () => 502);
        await sendTest(projectId);
        const [delivery] = await waitForDeliveries(t, projectId, settled(1));
        receiver.script = [];
        assert.equal(delivery.status, 'failed');
        assert.equal(delivery.attempts, MAX_ALERT_ATTEMPTS);
        assert.equal(receivedFor(delivery.id).length, MAX_ALERT_ATTEMPTS);
        assert.equal(delivery.responseStatus, 502);
      });

      it('signs with the secret the caller gave, which a receiver holding another secret refuses', async () => {
        const { projectId } = await projectWith({ type: 'webhook', url: receiver.url('/mine'), secret: 'the-callers-own-secret' });
        receiver.secret = 'the-callers-own-secret';
        await sendTest(projectId);
        const [good] = await waitForDeliveries(t, projectId, settled(1));
        assert.equal(good.status, 'delivered');
        assert.ok(receivedFor(good.id).every((request) => request.signatureValid));

        receiver.secret = 'a-different-secret-entirely';
        await sendTest(projectId);
        const [bad] = await waitForDeliveries(t, projectId, settled(2));
        assert.equal(bad.status, 'failed');
        assert.equal(bad.responseStatus, 401);
        assert.equal(receivedFor(bad.id)[0].signatureValid, false);
      });
    });

    describe('email', () => {
      it('sends a test alert through the SMTP server, authenticated, to every recipient', async () => {
        const { projectId } = await projectWith({ type: 'email', to: ['ops@example.com', 'lead@example.com'] }, 'Docs <&> site');
        const before = smtp.mails.length;
        await sendTest(projectId);
        const [delivery] = await waitForDeliveries(t, projectId, settled(1));
        assert.equal(delivery.status, 'delivered', delivery.lastError ?? '');
        assert.equal(delivery.responseStatus, 250);
        assert.deepEqual(delivery.channel.target, 'ops@example.com, lead@example.com');

        const [mail] = (await smtp.waitForMails(before + 1)).slice(before);
        assert.deepEqual(mail.recipients, ['ops@example.com', 'lead@example.com']);
        assert.equal(mail.user, 'alerts');
        assert.equal(mail.headers.to, 'ops@example.com, lead@example.com');
        assert.match(mail.headers.from, /alerts@loupe\.test/);
        assert.equal(mail.headers.subject, '[Loupe] Docs <&> site: test alert');
        assert.equal(mail.headers['loupe-delivery'], delivery.id);
        assert.match(mail.text, /This is a test alert for the project Docs <&> site/);
        assert.match(mail.html, /test alert for the project Docs &lt;&amp;&gt; site/);
      });

      it('fails at once when the SMTP server refuses the mailbox for good', async () => {
        const { projectId } = await projectWith({ type: 'email', to: ['nobody@example.com'] });
        await sendTest(projectId);
        const [delivery] = await waitForDeliveries(t, projectId, settled(1));
        assert.equal(delivery.status, 'failed');
        assert.equal(delivery.attempts, 1);
        assert.equal(delivery.responseStatus, 550);
        assert.match(delivery.lastError ?? '', /^SMTP: /);
      });
    });

    describe('the delivery log', () => {
      it('sends a test alert on every channel and lists the deliveries newest first, in pages, by state', async () => {
        const project = await t.request('POST', '/api/v1/projects', { body: { name: 'Log', siteUrl: 'https://docs.example.com/' } });
        const projectId = project.body.id;
        const saved = await t.request('PUT', `/api/v1/projects/${projectId}/alerts`, {
          body: {
            enabled: true,
            conditions: {},
            channels: [
              { type: 'webhook', url: receiver.url('/log'), secret: 'log-secret-0123456' },
              { type: 'email', to: ['nobody@example.com'] },
            ],
          },
        });
        receiver.secret = 'log-secret-0123456';
        const queued = await sendTest(projectId);
        assert.deepEqual(
          queued.map((d) => d.channel.id),
          saved.body.channels.map((c: { id: string }) => c.id),
        );
        const log = await waitForDeliveries(t, projectId, settled(2));
        assert.deepEqual(
          log.map((d) => d.id),
          queued.map((d) => d.id).reverse(),
        );

        const first = await t.request('GET', `/api/v1/projects/${projectId}/alerts/deliveries?limit=1`);
        assert.deepEqual(
          first.body.map((d: AlertDelivery) => d.id),
          [log[0].id],
        );
        const next = nextPage(first);
        assert.ok(next);
        const second = await t.request('GET', next);
        assert.deepEqual(
          second.body.map((d: AlertDelivery) => d.id),
          [log[1].id],
        );
        assert.equal(nextPage(second), undefined);

        const failed = await t.request('GET', `/api/v1/projects/${projectId}/alerts/deliveries?status=failed`);
        assert.deepEqual(
          failed.body.map((d: AlertDelivery) => d.channel.type),
          ['email'],
        );
        const delivered = await t.request('GET', `/api/v1/projects/${projectId}/alerts/deliveries?status=delivered`);
        assert.deepEqual(
          delivered.body.map((d: AlertDelivery) => d.channel.type),
          ['webhook'],
        );
      });

      it('refuses a bad state, limit or cursor', async () => {
        const { projectId } = await projectWith({ type: 'email', to: ['ops@example.com'] });
        for (const query of ['status=lost', 'limit=0', 'limit=101', 'cursor=nope', 'colour=red']) {
          const answer = await t.request('GET', `/api/v1/projects/${projectId}/alerts/deliveries?${query}`);
          assert.equal(answer.status, 400, query);
        }
      });
    });
  });

  describe(`alert deliveries without SMTP or private targets (${dialect})`, () => {
    let t: TestServer;
    let receiver: WebhookReceiver;

    before(async () => {
      receiver = await startWebhookReceiver();
      t = await startTestServer(dialect, { alertRetryBaseMs: 20 });
    });
    after(async () => {
      await t.close();
      await receiver.close();
    });

    it('fails an email delivery at once, saying no SMTP server is configured, and a webhook whose name resolves to loopback', async () => {
      const project = await t.request('POST', '/api/v1/projects', { body: { name: 'Docs', siteUrl: 'https://docs.example.com/' } });
      const projectId = project.body.id;
      // A name, not a literal address: accepted when saved, refused by the guard when connecting.
      const url = receiver.url('/private').replace('127.0.0.1', 'localhost');
      const saved = await t.request('PUT', `/api/v1/projects/${projectId}/alerts`, {
        body: {
          enabled: true,
          conditions: {},
          channels: [
            { type: 'email', to: ['ops@example.com'] },
            { type: 'webhook', url },
          ],
        },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      receiver.secret = saved.body.channels[1].secret;
      await t.request('POST', `/api/v1/projects/${projectId}/alerts/test`);
      const log = await waitForDeliveries(t, projectId, settled(2));
      const byType = Object.fromEntries(log.map((d) => [d.channel.type, d]));
      assert.equal(byType.email.status, 'failed');
      assert.equal(byType.email.attempts, 1);
      assert.match(byType.email.lastError ?? '', /No SMTP server is configured \(LOUPE_SMTP_URL\)/);
      assert.equal(byType.webhook.status, 'failed');
      assert.equal(byType.webhook.attempts, 1);
      assert.match(byType.webhook.lastError ?? '', /not public/);
      assert.equal(receiver.received.length, 0);
    });
  });
}
