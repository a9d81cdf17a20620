import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AlertDelivery, AlertEvent } from '@loupe/contract';
import { htmlPage } from '../testing/html-page.ts';
import { followCrawlEvents } from '../testing/test-crawls.ts';
import { testDialects } from '../testing/test-dialects.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { notFoundPage, type SiteDefinition, startTestSite, type TestSite } from '../testing/test-site.ts';
import { AlertTrigger } from './alert-trigger.ts';
import { settled, waitForDeliveries } from './test-deliveries.ts';
import { startTestSmtpServer, type TestSmtpServer } from './test-smtp-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from './test-webhook-receiver.ts';

const SECRET = 'crawl-alerts-secret-0123';

/** A small site whose pages link to each other; `break` makes one of them answer 404. */
function siteDefinition(): SiteDefinition & { break(): void } {
  const definition: SiteDefinition = {
    pages: {
      '/': htmlPage({ path: '/', title: 'Home of the test site', links: ['/a', '/b'] }),
      '/a': htmlPage({ path: '/a', title: 'Page A of the test site', links: ['/', '/b'] }),
      '/b': htmlPage({ path: '/b', title: 'Page B of the test site', links: ['/', '/a'] }),
    },
    robotsTxt: 'User-agent: *\nAllow: /\n',
  };
  return Object.assign(definition, {
    break() {
      definition.pages['/b'] = notFoundPage;
    },
  });
}

for (const dialect of testDialects()) {
  describe(`alerts at the end of crawls (${dialect})`, () => {
    let t: TestServer;
    let smtp: TestSmtpServer;
    let receiver: WebhookReceiver;
    let trigger: AlertTrigger;

    before(async () => {
      smtp = await startTestSmtpServer();
      receiver = await startWebhookReceiver();
      receiver.secret = SECRET;
      t = await startTestServer(dialect, { crawlAllowPrivate: true, smtpUrl: smtp.url, alertRetryBaseMs: 20 });
      trigger = new AlertTrigger(t.server.database, t.server.jobs);
    });
    after(async () => {
      await t.close();
      await receiver.close();
      await smtp.close();
    });

    async function createProject(site: TestSite, name: string): Promise<string> {
      const answer = await t.request('POST', '/api/v1/projects', {
        body: { name, siteUrl: site.url('/'), crawlDefaults: { maxPages: 10 } },
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.id;
    }

    async function setAlerts(projectId: string, body: Record<string, unknown>) {
      const answer = await t.request('PUT', `/api/v1/projects/${projectId}/alerts`, { body });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body;
    }

    /** Crawls the project's site to the end; answers the crawl as it ended. */
    async function crawl(projectId: string) {
      const started = await t.request('POST', `/api/v1/projects/${projectId}/crawls`, { body: {} });
      assert.equal(started.status, 202, JSON.stringify(started.body));
      await followCrawlEvents(t, started.body.id);
      return (await t.request('GET', `/api/v1/crawls/${started.body.id}`)).body;
    }

    async function reportOf(reportId: string) {
      return (await t.request('GET', `/api/v1/reports/${reportId}`)).body;
    }

    const forCrawl = (crawlId: string, count: number) => (deliveries: AlertDelivery[]) =>
      settled(count)(deliveries.filter((delivery) => delivery.crawlId === crawlId));

    it('alerts on a score drop and new errors when the site breaks between two crawls, by webhook and by email', async () => {
      const definition = siteDefinition();
      const site = await startTestSite(definition);
      try {
        const projectId = await createProject(site, 'Breaking site');
        const settings = await setAlerts(projectId, {
          enabled: true,
          conditions: { crawlFailed: true, scoreDropBy: 1, newErrors: true },
          channels: [
            { type: 'webhook', url: receiver.url('/crawl-alerts'), secret: SECRET },
            { type: 'email', to: ['ops@example.com'] },
          ],
        });
        const healthy = await crawl(projectId);
        assert.equal(healthy.status, 'completed');
        const firstReport = await reportOf(healthy.reportId);
        // Nothing to compare the first report with: no alert, once the crawl's job has judged it.
        await trigger.crawlEnded(healthy.id);
        assert.deepEqual((await t.request('GET', `/api/v1/projects/${projectId}/alerts/deliveries`)).body, []);

        definition.break();
        // Below the first score: fires now that the score fell, and shows both conditions listed in one alert.
        await setAlerts(projectId, {
          enabled: true,
          conditions: { ...settings.conditions, scoreBelow: firstReport.health.score },
          channels: [
            { type: 'webhook', id: settings.channels[0].id, url: receiver.url('/crawl-alerts') },
            { type: 'email', id: settings.channels[1].id, to: ['ops@example.com'] },
          ],
        });
        const mailsBefore = smtp.mails.length;
        const broken = await crawl(projectId);
        assert.equal(broken.status, 'completed');
        const secondReport = await reportOf(broken.reportId);
        assert.ok(secondReport.health.score < firstReport.health.score, `${secondReport.health.score} < ${firstReport.health.score}`);

        const deliveries = (await waitForDeliveries(t, projectId, forCrawl(broken.id, 2))).filter((d) => d.crawlId === broken.id);
        assert.deepEqual(deliveries.map((d) => [d.channel.type, d.status]).sort(), [
          ['email', 'delivered'],
          ['webhook', 'delivered'],
        ]);
        const [delivery] = deliveries;
        assert.equal(delivery.reportId, broken.reportId);
        assert.equal(delivery.test, false);
        const types = delivery.conditions.map((condition) => condition.type);
        assert.deepEqual(types, ['scoreBelow', 'scoreDropBy', 'newErrors']);
        const drop = delivery.conditions[1];
        assert.ok(drop.type === 'scoreDropBy');
        assert.deepEqual(
          [drop.score, drop.previousScore, drop.previousReportId],
          [secondReport.health.score, firstReport.health.score, healthy.reportId],
        );
        const newErrors = delivery.conditions[2];
        assert.ok(newErrors.type === 'newErrors');
        assert.ok(newErrors.count >= 1);
        assert.ok(
          newErrors.examples.some((example) => example.url?.startsWith(site.origin)),
          JSON.stringify(newErrors.examples),
        );

        const webhookDelivery = deliveries.find((d) => d.channel.type === 'webhook') as AlertDelivery;
        const [request] = receiver.received.filter((r) => r.headers['loupe-delivery'] === webhookDelivery.id);
        assert.ok(request.signatureValid);
        const event = JSON.parse(request.body) as AlertEvent;
        assert.deepEqual(event.crawl, { id: broken.id, status: 'completed', url: site.url('/'), finishedAt: broken.finishedAt });
        assert.equal(event.report?.id, broken.reportId);
        assert.equal(event.report?.score, secondReport.health.score);
        assert.equal(event.previousReport?.id, healthy.reportId);
        assert.deepEqual(event.conditions, webhookDelivery.conditions);

        const [mail] = (await smtp.waitForMails(mailsBefore + 1)).slice(mailsBefore);
        assert.deepEqual(mail.recipients, ['ops@example.com']);
        const dropped = firstReport.health.score - secondReport.health.score;
        const errorsWord = newErrors.count === 1 ? 'new error' : 'new errors';
        assert.equal(
          mail.headers.subject,
          `[Loupe] Breaking site: score ${secondReport.health.score} (−${dropped}), ${newErrors.count} ${errorsWord}`,
        );
        assert.match(
          mail.text,
          new RegExp(`The health score fell by ${dropped} points, from ${firstReport.health.score} to ${secondReport.health.score}`),
        );
        assert.match(mail.text, new RegExp(`${newErrors.count} ${errorsWord} since the previous report:`));
        assert.match(mail.html, /since the previous report/);
      } finally {
        await site.close();
      }
    });

    it('alerts once per crawl and channel however often the end of the crawl is judged', async () => {
      const definition = siteDefinition();
      definition.break();
      const site = await startTestSite(definition);
      try {
        const projectId = await createProject(site, 'Once');
        await setAlerts(projectId, {
          enabled: true,
          conditions: { scoreBelow: 100 },
          channels: [{ type: 'webhook', url: receiver.url('/once'), secret: SECRET }],
        });
        const ended = await crawl(projectId);
        const report = await reportOf(ended.reportId);
        assert.ok(report.health.score < 100, 'a site with a broken page scores below 100');
        const first = await waitForDeliveries(t, projectId, forCrawl(ended.id, 1));
        await trigger.crawlEnded(ended.id);
        await trigger.crawlEnded(ended.id);
        const again = await t.request('GET', `/api/v1/projects/${projectId}/alerts/deliveries`);
        assert.deepEqual(
          again.body.map((d: AlertDelivery) => d.id),
          first.map((d) => d.id),
        );
        assert.equal(receiver.received.filter((r) => r.headers['loupe-delivery'] === first[0].id).length, 1);
      } finally {
        await site.close();
      }
    });

    it("alerts on a failed crawl found ended when the crawl's job runs again (as after a crash)", async () => {
      const site = await startTestSite(siteDefinition());
      try {
        const projectId = await createProject(site, 'Failing');
        await setAlerts(projectId, {
          enabled: true,
          conditions: { crawlFailed: true },
          channels: [{ type: 'webhook', url: receiver.url('/failed'), secret: SECRET }],
        });
        const ended = await crawl(projectId);
        assert.equal(ended.status, 'completed');
        // A completed crawl does not fire crawlFailed.
        await trigger.crawlEnded(ended.id);
        assert.deepEqual((await t.request('GET', `/api/v1/projects/${projectId}/alerts/deliveries`)).body, []);

        // A crawl that failed, as the runner leaves one whose crawler threw; then its job is run
        // again, finds it ended (skipped) and must still judge it.
        await t.server.database.db
          .updateTable('crawls')
          .set({ status: 'failed', error: 'the crawler lost its database' })
          .where('id', '=', ended.id)
          .execute();
        await t.server.jobs.send('crawl.run', { crawlId: ended.id });
        const [delivery] = await waitForDeliveries(t, projectId, forCrawl(ended.id, 1));
        assert.equal(delivery.status, 'delivered');
        assert.deepEqual(delivery.conditions, [{ type: 'crawlFailed', error: 'the crawler lost its database' }]);
        const [request] = receiver.received.filter((r) => r.headers['loupe-delivery'] === delivery.id);
        const event = JSON.parse(request.body) as AlertEvent;
        assert.equal(event.crawl?.status, 'failed');
      } finally {
        await site.close();
      }
    });

    it('sends nothing while alerts are disabled, or for a crawl outside any project', async () => {
      const site = await startTestSite(siteDefinition());
      try {
        const projectId = await createProject(site, 'Quiet');
        await setAlerts(projectId, {
          enabled: false,
          conditions: { scoreBelow: 100, crawlFailed: true, newErrors: true, scoreDropBy: 1 },
          channels: [{ type: 'webhook', url: receiver.url('/quiet'), secret: SECRET }],
        });
        const ended = await crawl(projectId);
        await trigger.crawlEnded(ended.id);
        assert.deepEqual((await t.request('GET', `/api/v1/projects/${projectId}/alerts/deliveries`)).body, []);

        const loose = await t.request('POST', '/api/v1/crawls', { body: { url: site.url('/'), maxPages: 1 } });
        await followCrawlEvents(t, loose.body.id);
        await trigger.crawlEnded(loose.body.id);
        const rows = await t.server.database.db.selectFrom('alert_deliveries').select('id').where('crawl_id', '=', loose.body.id).execute();
        assert.deepEqual(rows, []);
      } finally {
        await site.close();
      }
    });
  });
}
