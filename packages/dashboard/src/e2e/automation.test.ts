import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startWebhookReceiver, type WebhookReceiver } from '@loupe/server/src/alerts/test-webhook-receiver.ts';
import { addPasswordMember, setUpOwner } from '@loupe/server/src/sessions/test-session.ts';
import { htmlPage } from '@loupe/server/src/testing/html-page.ts';
import { followCrawlEvents } from '@loupe/server/src/testing/test-crawls.ts';
import { startTestServer, type TestServer } from '@loupe/server/src/testing/test-server.ts';
import { startTestSite, type TestSite } from '@loupe/server/src/testing/test-site.ts';
import type { Locator, Page } from 'playwright-core';
import { ensureDashboardBuilt } from './built-dashboard.ts';
import { type Chromium, launchChromium } from './chromium.ts';
import { screenshot } from './screenshots.ts';
import { signIn } from './sign-in.ts';

const OWNER_EMAIL = 'olga@example.test';

/** A small shop to crawl: one page left with placeholder copy, one about lanterns to search for. */
const shop = {
  '/': htmlPage({ path: '/', title: 'Harbour Supplies', links: ['/lanterns', '/kettles', '/draft'] }),
  '/lanterns': htmlPage({
    path: '/lanterns',
    title: 'Brass lanterns',
    body: '<p>Our brass lanterns light every harbour path. Each lantern burns oil for twelve hours and is made by hand.</p>',
    links: ['/'],
  }),
  '/kettles': htmlPage({
    path: '/kettles',
    title: 'Copper kettles',
    body: '<p>Copper kettles boil water fast on any stove.</p>',
    links: ['/'],
  }),
  '/draft': htmlPage({
    path: '/draft',
    title: 'Spring catalogue',
    body: '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>',
    links: ['/'],
  }),
};

const placeholderRule = {
  id: 'content/placeholder-copy',
  title: 'Placeholder copy left on a live page',
  category: 'content',
  severity: 'error',
  when: { type: 'text', source: 'visible', str: { matches: '\\blorem ipsum\\b' } },
  message: 'Placeholder “{{match}}” on {{path}}',
};
/** `value` must be a number: "few" is the mistake the editor is to place at its rule and line. */
const thinRule = (value: unknown) => ({
  id: 'content/thin-page',
  title: 'Thin page',
  category: 'content',
  severity: 'notice',
  when: { type: 'metric', metric: 'wordCount', cmp: { op: 'lt', value } },
  message: '{{path}} has {{value}} words',
});
const packText = (value: unknown) =>
  JSON.stringify({ schema: 'loupe.rules/v1', name: 'House rules', rules: [placeholderRule, thinRule(value)] }, null, 2);

/** Where signing in lands: the workspace's image projects. */
const IMAGES_LANDING = /\/w\/[^/]+\/images$/;

/** The texts that describe a control (its hint and its error), as assistive technology reads them. */
async function descriptionOf(control: Locator): Promise<string> {
  const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(ids.map((id) => control.page().locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

/** The elements that reach past the right edge of the screen (none, on a page that fits). */
function widerThanScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth) return [];
    return [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((element) => !element.closest('.table-scroll, .app-nav, .sub-tabs'))
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} (${Math.round(element.getBoundingClientRect().right)} px)`,
      )
      .slice(0, 10);
  });
}

/** Schedules, alerts, rule packs and search in Debian's Chromium against the real server (issue #7, point 3). */
describe('audit automation in a browser', () => {
  let t: TestServer;
  let site: TestSite;
  let receiver: WebhookReceiver;
  let browser: Chromium;
  let page: Page;
  let workspaceId: string;
  let projectId: string;
  let viewerEmail: string;
  let packId: string;

  before(async () => {
    await ensureDashboardBuilt();
    [site, receiver] = await Promise.all([startTestSite({ pages: shop }), startWebhookReceiver()]);
    t = await startTestServer('sqlite', { crawlAllowPrivate: true });
    workspaceId = t.owner.workspaceId;
    await setUpOwner(t, OWNER_EMAIL);
    viewerEmail = await addPasswordMember(t, workspaceId, t.owner.key, 'viewer');
    // Schedules and rule packs need a plan with them (DESIGN.md §6); owners change the plan.
    assert.equal((await t.request('PATCH', '/api/v1/team', { body: { plan: 'pro' } })).status, 200);
    const project = await t.request('POST', '/api/v1/projects', {
      body: { name: 'Harbour site', siteUrl: site.url('/'), crawlDefaults: { sitemaps: false, maxPages: 20 } },
    });
    assert.equal(project.status, 201, JSON.stringify(project.body));
    projectId = project.body.id;
    const crawl = await t.request('POST', `/api/v1/projects/${projectId}/crawls`, { body: {} });
    assert.equal(crawl.status, 202, JSON.stringify(crawl.body));
    assert.ok((await followCrawlEvents(t, crawl.body.id)).at(-1)?.reportId, 'the crawl ended with a report');
    browser = await launchChromium();
    page = await browser.context.newPage();
    await signIn(page, t.url, OWNER_EMAIL, IMAGES_LANDING);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
    await site?.close();
  });

  const open = async (path: string, heading: string) => {
    await page.goto(`${t.url}/w/${workspaceId}/${path}`);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await page.locator('.loading-state').first().waitFor({ state: 'detached' });
  };

  describe('schedules', () => {
    it('creates a schedule and lists it with its next run in its time zone', async () => {
      await open(`audits/${projectId}/schedules`, 'Schedules');
      await page.getByText('No schedules yet').waitFor();
      await page.getByRole('button', { name: 'New schedule' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'New schedule' });
      await dialog.getByLabel('Cron expression').fill('0 3 * * *');
      await dialog.getByLabel('Time zone').fill('Europe/Paris');
      await dialog.getByRole('button', { name: 'Create schedule' }).click();
      const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: '0 3 * * *' }) });
      await row.waitFor();
      const [schedule] = (await t.request('GET', `/api/v1/projects/${projectId}/schedules`)).body;
      assert.equal(schedule.timezone, 'Europe/Paris');
      const nextRun = row.locator('time').first();
      assert.equal(await nextRun.getAttribute('datetime'), schedule.nextRunAt);
      assert.match((await nextRun.textContent()) ?? '', /03:00/, 'the run reads as 03:00 in Paris');
      await row.getByRole('cell', { name: 'Europe/Paris' }).waitFor();
      await screenshot(page, 'automation-schedules');
    });

    it("shows the API's message about a bad cron expression at the cron field", async () => {
      await page.getByRole('button', { name: 'New schedule' }).click();
      const dialog = page.getByRole('dialog', { name: 'New schedule' });
      const cron = dialog.getByLabel('Cron expression');
      await cron.fill('* * * * *');
      await dialog.getByRole('button', { name: 'Create schedule' }).click();
      await dialog.locator('.field-error').waitFor();
      assert.equal(await cron.getAttribute('aria-invalid'), 'true');
      assert.match(await descriptionOf(cron), /every 5 minutes/);
      assert.equal(await dialog.getByRole('alert').count(), 0, 'the message is at the field, not repeated above the form');
      await screenshot(page, 'automation-schedule-bad-cron');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    });

    it('explains a plan without scheduled crawls and what to do about it', async () => {
      assert.equal((await t.request('PATCH', '/api/v1/team', { body: { plan: 'free' } })).status, 200);
      try {
        await page.getByRole('button', { name: 'New schedule' }).click();
        const dialog = page.getByRole('dialog', { name: 'New schedule' });
        await dialog.getByRole('button', { name: 'Create schedule' }).click();
        const notice = dialog.getByRole('alert');
        await notice.getByText('Scheduled crawls are not part of the free plan.').waitFor();
        await notice.getByRole('link', { name: 'move the workspace to a plan that includes them' }).waitFor();
        await dialog.getByRole('button', { name: 'Cancel' }).click();
      } finally {
        assert.equal((await t.request('PATCH', '/api/v1/team', { body: { plan: 'pro' } })).status, 200);
      }
    });
  });

  describe('alerts', () => {
    it('shows a bad webhook URL at its field', async () => {
      await open(`audits/${projectId}/alerts`, 'Alerts');
      await page.getByLabel('A crawl fails').check();
      await page.getByLabel('The score is below').fill('70');
      await page.getByRole('button', { name: 'Add a webhook' }).click();
      const url = page.getByLabel('Webhook URL');
      await url.fill('hooks.example.com/loupe');
      await page.getByRole('button', { name: 'Save alert settings' }).click();
      await page.locator('.field-error').first().waitFor();
      assert.equal(await url.getAttribute('aria-invalid'), 'true');
      assert.notEqual(await descriptionOf(url), '');
    });

    it('saves a webhook, shows its new secret once, and a test alert reaches the receiver signed', async () => {
      await page.getByLabel('Webhook URL').fill(receiver.url('/hook'));
      await page.getByRole('button', { name: 'Save alert settings' }).click();
      const secret = page.getByLabel(`Signing secret for ${receiver.url('/hook')}`);
      await secret.waitFor();
      receiver.secret = (await secret.textContent()) ?? '';
      const saved = (await t.request('GET', `/api/v1/projects/${projectId}/alerts`)).body;
      assert.deepEqual(saved.conditions, { crawlFailed: true, scoreBelow: 70, scoreDropBy: null, newErrors: false });
      assert.ok(receiver.secret.startsWith(saved.channels[0].secretPreview.replace(/…$/, '')), 'the secret shown is the one saved');

      await page.getByRole('button', { name: 'Send test alert' }).click();
      await page.locator('.test-result').getByText('Delivered (HTTP 200)').waitFor();
      assert.equal(receiver.received.length, 1);
      const [request] = receiver.received;
      assert.equal(request!.signatureValid, true);
      assert.equal(JSON.parse(request!.body).test, true);
      const log = page.getByRole('region', { name: 'Deliveries' });
      await log.getByRole('row').filter({ hasText: 'Test' }).filter({ hasText: 'Delivered' }).waitFor();
      await screenshot(page, 'automation-alerts');
    });
  });

  describe('rule packs', () => {
    it('places a mistake in the JSON at its rule, field and line', async () => {
      await open('rules', 'Rules');
      await page.getByText('No rule packs yet').waitFor();
      await page.getByRole('link', { name: 'New rule pack' }).first().click();
      await page.getByRole('heading', { name: 'New rule pack', level: 1 }).waitFor();
      await page.getByLabel('Name').fill('House rules');
      const editor = page.getByLabel('Pack (JSON)');
      const text = packText('few');
      await editor.fill(text);
      await page.getByRole('button', { name: 'Validate' }).click();
      const problem = page.locator('.pack-problem');
      await problem.waitFor();
      assert.equal(await problem.count(), 1);
      assert.match((await problem.locator('.problem-where').textContent()) ?? '', /^Rule 2 · content\/thin-page \(Thin page\)$/);
      assert.equal(await problem.locator('.problem-path').textContent(), 'when.cmp.value');
      const line = text.split('\n').findIndex((each) => each.includes('"value": "few"')) + 1;
      await problem.getByRole('button', { name: `Line ${line}` }).click();
      const caretLine = await editor.evaluate((area: HTMLTextAreaElement) => area.value.slice(0, area.selectionStart).split('\n').length);
      assert.equal(caretLine, line, 'the caret moves to the line of the mistake');
      assert.equal(await page.locator('.json-line-number.has-problem').textContent(), String(line));
      const offset = await editor.evaluate((area: HTMLTextAreaElement, marked: number) => {
        const style = getComputedStyle(area);
        const lineTop =
          area.getBoundingClientRect().top +
          Number.parseFloat(style.paddingTop) +
          (marked - 1) * Number.parseFloat(style.lineHeight) -
          area.scrollTop;
        return Math.abs(document.querySelector('.json-line-number.has-problem')!.getBoundingClientRect().top - lineTop);
      }, line);
      assert.ok(offset < 2, `the marked line number is level with its line (${offset} px apart)`);
      await screenshot(page, 'automation-rule-pack-error');
    });

    it('validates the fixed pack, saves it and attaches it to the project', async () => {
      await page.getByLabel('Pack (JSON)').fill(packText(5));
      await page.getByRole('button', { name: 'Validate' }).click();
      await page.getByText('The pack is valid: 2 rules.').waitFor();
      assert.equal(await page.locator('.pack-problem').count(), 0);
      await page.getByRole('button', { name: 'Create pack' }).click();
      await page.waitForURL(/\/rules\/[0-9a-f-]{36}$/);
      packId = page.url().split('/').at(-1)!;
      await page.getByRole('heading', { name: 'House rules', level: 1 }).waitFor();
      await page.getByRole('checkbox', { name: /Harbour site/ }).click();
      await page
        .getByRole('checkbox', { name: /Harbour site/, checked: true })
        .and(page.locator(':enabled'))
        .waitFor();
      assert.deepEqual((await t.request('GET', `/api/v1/projects/${projectId}`)).body.rulePackIds, [packId]);
    });

    it("previews the pack on the project's last crawl, with the failing page and its message", async () => {
      await page.getByRole('button', { name: 'Preview', exact: true }).click();
      const placeholder = page.getByRole('listitem', { name: 'Rule content/placeholder-copy' });
      await placeholder.waitFor();
      assert.equal(await placeholder.locator('.failing dd').textContent(), '1');
      await placeholder.getByRole('link', { name: site.url('/draft') }).waitFor();
      await placeholder.getByText('Placeholder “Lorem ipsum” on /draft').waitFor();
      await screenshot(page, 'automation-rule-pack-preview');
    });
  });

  describe('search', () => {
    it('builds the index and finds a word, its matches highlighted', async () => {
      await open(`audits/${projectId}/search`, 'Search');
      await page.getByText('Not built yet').waitFor();
      await page.getByRole('button', { name: 'Build index' }).click();
      await page.getByText('Ready', { exact: true }).waitFor();
      await page.getByLabel('Search pages').fill('lanterns');
      await page.getByLabel('Search pages').press('Enter');
      const hit = page.locator('.search-hit').first();
      await hit.getByRole('link', { name: 'Brass lanterns' }).waitFor();
      assert.match(page.url(), /\?q=lanterns$/);
      const marks = await hit.locator('.snippet mark').allTextContents();
      assert.ok(marks.length > 0 && marks.every((mark) => /^lanterns?$/i.test(mark)), marks.join(', '));
      assert.doesNotMatch((await hit.locator('.snippet').textContent()) ?? '', /<\/?mark>/);
      await screenshot(page, 'automation-search');
    });
  });

  it('fits a phone: the automation screens are no wider than 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [path, heading] of [
        [`audits/${projectId}/schedules`, 'Schedules'],
        [`audits/${projectId}/alerts`, 'Alerts'],
        [`audits/${projectId}/search?q=lantern`, 'Search'],
        ['rules', 'Rules'],
        [`rules/${packId}`, 'House rules'],
      ] as const) {
        await open(path, heading);
        assert.deepEqual(await widerThanScreen(page), [], path);
      }
      await screenshot(page, 'automation-phone-rule-pack');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  describe('as a viewer', () => {
    before(async () => {
      await browser.context.clearCookies();
      await signIn(page, t.url, viewerEmail, IMAGES_LANDING);
    });

    it('sees schedules without the controls to change them', async () => {
      await open(`audits/${projectId}/schedules`, 'Schedules');
      await page.getByRole('cell', { name: '0 3 * * *' }).waitFor();
      for (const name of ['New schedule', 'Edit', 'Pause', 'Delete'])
        assert.equal(await page.getByRole('button', { name }).count(), 0, name);
    });

    it('reads the alert settings and the log, but cannot save or send a test', async () => {
      await open(`audits/${projectId}/alerts`, 'Alerts');
      await page.getByLabel('Webhook URL').waitFor();
      assert.equal(await page.getByLabel('Webhook URL').getAttribute('readonly'), '');
      for (const name of ['Save alert settings', 'Send test alert', 'Add a webhook', 'Remove webhook 1']) {
        assert.equal(await page.getByRole('button', { name }).count(), 0, name);
      }
      await page.getByRole('region', { name: 'Deliveries' }).getByText('Delivered (HTTP 200)').waitFor();
      await screenshot(page, 'automation-alerts-viewer');
    });

    it('reads rule packs and previews the saved one, with no way to change them', async () => {
      await open('rules', 'Rules');
      await page.getByRole('link', { name: 'House rules' }).click();
      await page.getByRole('heading', { name: 'House rules', level: 1 }).waitFor();
      assert.equal(await page.getByLabel('Pack (JSON)').getAttribute('readonly'), '');
      for (const name of ['Validate', 'Save', 'Delete'])
        assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, name);
      assert.equal(await page.getByRole('checkbox').count(), 0);
      await page.getByRole('button', { name: 'Preview', exact: true }).click();
      await page.getByRole('listitem', { name: 'Rule content/placeholder-copy' }).waitFor();
      await open('rules', 'Rules');
      assert.equal(await page.getByRole('link', { name: 'New rule pack' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Delete House rules' }).count(), 0);
    });

    it('searches, with no button to rebuild the index', async () => {
      await open(`audits/${projectId}/search?q=kettles`, 'Search');
      await page.locator('.search-hit').getByRole('link', { name: 'Copper kettles' }).waitFor();
      assert.equal(await page.getByRole('button', { name: /index/ }).count(), 0);
    });
  });
});
