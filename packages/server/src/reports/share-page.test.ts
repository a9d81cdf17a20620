import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SharedReport } from '@loupe/contract';
import { DomUtils, parseDocument } from 'htmlparser2';
import { renderSharedReportPage, renderShareNotFoundPage } from './share-page.ts';

const JSON_URL = '/api/v1/shared/s3cr3t-t0ken';
const SCRIPT_SAMPLE = '<script>alert(1)</script>';
const JAVASCRIPT_URL = 'javascript:alert(1)';
const ATTRIBUTE_BREAKOUT = '"><img src=x onerror=alert(1)>';

function sharedReport(overrides: Partial<SharedReport> = {}): SharedReport {
  return SharedReport.parse({
    id: '0190f5c2-7b1a-7c3e-9d4f-1a2b3c4d5e6f',
    url: 'https://shop.example.com/',
    mode: 'site',
    completeness: 'complete',
    createdAt: '2025-03-14T09:30:00.000Z',
    health: {
      score: 72,
      grade: 'C',
      colour: 'amber',
      exactScore: 71.62,
      unscoredReason: null,
      scoredUrls: 120,
      errorFreeShare: 0.8333,
      margin: null,
    },
    pages: { crawled: 134, html: 118, failed: 2, redirects: 12, blockedByRobots: 2 },
    counts: { errors: 9, warnings: 31, notices: 14 },
    categories: [
      { category: 'status', errors: 2, warnings: 0, notices: 0, lostPoints: 11.2 },
      { category: 'titles', errors: 7, warnings: 12, notices: 0, lostPoints: 9.4 },
      { category: 'structured-data', errors: 0, warnings: 0, notices: 14, lostPoints: 0.3 },
    ],
    issues: [
      {
        ruleId: 'status/4xx',
        category: 'status',
        severity: 'error',
        scope: 'page',
        title: 'URL answers with a client error',
        explanation: 'Visitors and search engines get an error page instead of content.',
        fix: 'Restore the page, or redirect it with a 301 to its closest replacement, and update the links to it.',
        pages: 2,
        instances: 2,
        share: null,
        lostPoints: 11.2,
        scoreWithout: 83,
        gain: 11.2,
        examples: [
          {
            url: 'https://shop.example.com/old-offer',
            pageId: '0190f5c2-7b1a-7c3e-9d4f-1a2b3c4d5e70',
            count: 1,
            samples: [],
            detail: 'HTTP 404',
          },
        ],
      },
      {
        ruleId: 'titles/missing',
        category: 'titles',
        severity: 'error',
        scope: 'page',
        title: 'Page has no title',
        explanation: 'The title is the headline of a search result.',
        fix: "Add a <title> inside the <head> that names the page's subject in 30–60 characters.",
        pages: 7,
        instances: 7,
        share: null,
        lostPoints: 6.1,
        scoreWithout: 78,
        gain: 6.1,
        examples: [
          { url: 'https://shop.example.com/cart', pageId: '0190f5c2-7b1a-7c3e-9d4f-1a2b3c4d5e71', count: 1, samples: [], detail: null },
          { url: JAVASCRIPT_URL, pageId: null, count: 1, samples: [SCRIPT_SAMPLE], detail: null },
          { url: ATTRIBUTE_BREAKOUT, pageId: null, count: 3, samples: [ATTRIBUTE_BREAKOUT], detail: ATTRIBUTE_BREAKOUT },
        ],
      },
      {
        ruleId: 'titles/too-long',
        category: 'titles',
        severity: 'warning',
        scope: 'page',
        title: 'Title is too long',
        explanation: 'Search engines cut long titles.',
        fix: 'Shorten the title to at most 60 characters.',
        pages: 12,
        instances: 12,
        share: null,
        lostPoints: 3.3,
        scoreWithout: 75,
        gain: 3.4,
        examples: [
          {
            url: 'https://shop.example.com/p/1',
            pageId: '0190f5c2-7b1a-7c3e-9d4f-1a2b3c4d5e72',
            count: 1,
            samples: ['Blue widget – the very best blue widget you can buy online today, shipped free'],
            detail: '78 characters',
          },
        ],
      },
      {
        ruleId: 'structured-data/missing',
        category: 'structured-data',
        severity: 'notice',
        scope: 'site',
        title: 'No structured data',
        explanation: 'Structured data makes rich results possible.',
        fix: 'Describe your products with schema.org Product markup in JSON-LD.',
        pages: 0,
        instances: 0,
        share: 0.9,
        lostPoints: 0.3,
        scoreWithout: 72,
        gain: 0.3,
        examples: [],
      },
    ],
    topFixes: [
      { ruleId: 'status/4xx', title: 'URL answers with a client error', scoreWithout: 83, gain: 11.2 },
      { ruleId: 'titles/missing', title: 'Page has no title', scoreWithout: 78, gain: 6.1 },
    ],
    ruleErrors: [],
    lab: null,
    ...overrides,
  });
}

function render(report = sharedReport()): string {
  return renderSharedReportPage(report, { jsonUrl: JSON_URL });
}

type Document = ReturnType<typeof parseDocument>;

function elements(within: Parameters<typeof DomUtils.getElementsByTagName>[1], name: string) {
  return DomUtils.getElementsByTagName(name, within);
}

/** The visible text of the body, spaces collapsed. */
function text(document: Document): string {
  return DomUtils.textContent(elements(document, 'body')).replace(/\s+/g, ' ');
}

describe('the shared report page', () => {
  it('shows the score large, with its grade, colour and share of error-free URLs', () => {
    const page = render();
    const document = parseDocument(page);
    const score = DomUtils.findOne((element) => element.attribs.class === 'score-value score-amber', document.children)!;
    assert.equal(DomUtils.textContent(score), '72 out of 100');
    assert.match(text(document), /Grade C/);
    assert.match(text(document), /83\.3% of 120 URLs have no errors/);
  });

  it('shows the audited URL as the one h1, with the date, mode and pages crawled', () => {
    const document = parseDocument(render());
    const headings = elements(document, 'h1');
    assert.equal(headings.length, 1);
    assert.equal(DomUtils.textContent(headings[0]!), 'https://shop.example.com/');
    assert.match(text(document), /14 March 2025 at 09:30 UTC/);
    assert.match(text(document), /Whole site/);
    assert.match(text(document), /134 pages crawled/);
  });

  it('counts findings by severity', () => {
    assert.match(text(parseDocument(render())), /9 errors 31 warnings 14 notices/);
  });

  it('lists the top fixes with the score each would reach', () => {
    const fixes = elements(parseDocument(render()), 'ol')[0]!;
    assert.deepEqual(
      DomUtils.getElementsByTagName('li', fixes).map((item) => DomUtils.textContent(item)),
      ['URL answers with a client error: 72 → 83 (+11.2)', 'Page has no title: 72 → 78 (+6.1)'],
    );
  });

  it('tabulates the categories with the points each loses', () => {
    const rows = elements(parseDocument(render()), 'tr').map((row) => DomUtils.textContent(row).trim());
    assert.deepEqual(rows, ['CategoryErrorsWarningsNoticesPoints lost', 'Status20011.2', 'Titles71209.4', 'Structured data00140.3']);
  });

  it('lists every issue under its severity, errors first, with its rule, reach, fix and score if fixed', () => {
    const report = sharedReport();
    const document = parseDocument(render(report));
    const issueTitles = elements(document, 'h4').map((heading) => DomUtils.textContent(heading));
    assert.deepEqual(
      issueTitles,
      report.issues.map((issue) => issue.title),
    );
    assert.deepEqual(
      elements(document, 'h3').map((heading) => DomUtils.textContent(heading)),
      ['Errors (2)', 'Warnings (1)', 'Notices (1)'],
    );
    const first = elements(document, 'article')[0]!;
    assert.match(
      DomUtils.textContent(first).replace(/\s+/g, ' '),
      /status\/4xx Pages2 Instances2 Points lost11\.2 Score if fixed83 Why it matters: Visitors/,
    );
    assert.match(text(document), /How to fix: Add a <title> inside the <head>/);
    assert.match(text(document), /Scopewhole site, 90% affected/);
  });

  it("collapses each issue's examples in a details element", () => {
    const details = elements(parseDocument(render()), 'details');
    assert.equal(details.length, 3);
    assert.equal(DomUtils.textContent(elements(details[1]!, 'summary')[0]!), '3 examples');
    assert.match(DomUtils.textContent(details[2]!), /78 characters/);
  });

  it('links example URLs that are http(s), without passing the share link on or endorsing them', () => {
    const links = elements(parseDocument(render()), 'a').filter((link) => link.attribs.href !== JSON_URL);
    assert.deepEqual(
      links.map((link) => link.attribs.href),
      ['https://shop.example.com/old-offer', 'https://shop.example.com/cart', 'https://shop.example.com/p/1'],
    );
    for (const link of links) assert.equal(link.attribs.rel, 'nofollow noopener noreferrer');
  });

  it('keeps a sample of script as inert text', () => {
    const page = render();
    assert.ok(!page.includes(SCRIPT_SAMPLE));
    const document = parseDocument(page);
    assert.equal(elements(document, 'script').length, 0);
    assert.ok(elements(document, 'code').some((code) => DomUtils.textContent(code) === SCRIPT_SAMPLE));
  });

  it('shows a javascript: URL as text, never as a link', () => {
    const document = parseDocument(render());
    assert.ok(elements(document, 'a').every((link) => !/^\s*javascript:/i.test(link.attribs.href ?? '')));
    assert.ok(elements(document, 'span').some((span) => DomUtils.textContent(span) === JAVASCRIPT_URL));
  });

  it('keeps text that tries to close an attribute from adding elements or handlers', () => {
    const report = sharedReport();
    report.url = ATTRIBUTE_BREAKOUT;
    report.issues[0]!.title = ATTRIBUTE_BREAKOUT;
    report.topFixes[0]!.title = ATTRIBUTE_BREAKOUT;
    report.categories[0]!.category = ATTRIBUTE_BREAKOUT;
    const page = render(report);
    assert.ok(!page.includes(ATTRIBUTE_BREAKOUT));
    const document = parseDocument(page);
    assert.equal(elements(document, 'img').length, 0);
    assert.equal(
      DomUtils.findAll((element) => Object.keys(element.attribs).some((name) => name.startsWith('on')), document.children).length,
      0,
    );
    assert.equal(DomUtils.textContent(elements(document, 'h1')[0]!), ATTRIBUTE_BREAKOUT);
    assert.equal(DomUtils.textContent(elements(document, 'title')[0]!), `Audit of ${ATTRIBUTE_BREAKOUT} · Loupe`);
  });

  it('says "Not scored" and why when the crawl was blocked', () => {
    const report = sharedReport();
    report.health = {
      ...report.health,
      score: null,
      grade: null,
      colour: null,
      exactScore: null,
      unscoredReason: 'blocked',
      errorFreeShare: null,
    };
    report.topFixes = [];
    const document = parseDocument(render(SharedReport.parse(report)));
    assert.match(text(document), /Not scored The site refused the crawler/);
    assert.doesNotMatch(text(document), /Grade|Top fixes/);
  });

  it("marks a partial crawl with a badge and the score's margin", () => {
    const report = sharedReport({ completeness: 'partial' });
    report.health.margin = 2.44;
    const document = parseDocument(render(report));
    const badge = DomUtils.findOne((element) => element.attribs.class === 'badge badge-partial', document.children);
    assert.equal(badge && DomUtils.textContent(badge), 'Partial');
    assert.match(text(document), /Grade C · ±2\.4 points/);
    assert.equal(
      DomUtils.findOne((element) => element.attribs.class === 'badge badge-partial', parseDocument(render()).children),
      null,
    );
  });

  it('asks search engines not to index it, and sets a phone-width viewport and its language', () => {
    const document = parseDocument(render());
    const meta = Object.fromEntries(elements(document, 'meta').map((element) => [element.attribs.name, element.attribs.content]));
    assert.equal(meta.robots, 'noindex, nofollow');
    assert.equal(meta.viewport, 'width=device-width, initial-scale=1');
    assert.equal(elements(document, 'html')[0]!.attribs.lang, 'en');
  });

  it('is self-contained: no script, no external resource', () => {
    const page = render();
    assert.match(page, /^<!doctype html>/);
    const document = parseDocument(page);
    assert.equal(elements(document, 'script').length, 0);
    assert.equal(elements(document, 'link').length, 0);
    assert.equal(DomUtils.findAll((element) => 'src' in element.attribs, document.children).length, 0);
  });

  it('has headings in order and every section labelled by its heading', () => {
    const document = parseDocument(render());
    const levels = DomUtils.findAll((element) => /^h[1-6]$/.test(element.name), document.children).map((heading) =>
      Number(heading.name[1]),
    );
    levels.forEach((level, index) => assert.ok(level <= (levels[index - 1] ?? 0) + 1, `h${level} follows h${levels[index - 1]}`));
    for (const section of elements(document, 'section')) {
      const id = section.attribs['aria-labelledby']!;
      assert.ok(DomUtils.findOne((element) => element.attribs.id === id && /^h2$/.test(element.name), section.children));
    }
  });

  it('links to the JSON version and credits Loupe in the footer', () => {
    const footer = elements(parseDocument(render()), 'footer')[0]!;
    assert.equal(elements(footer, 'a')[0]!.attribs.href, JSON_URL);
    assert.match(DomUtils.textContent(footer), /Made with Loupe/);
  });

  it('says so when there is nothing to fix', () => {
    const document = parseDocument(
      render(sharedReport({ issues: [], categories: [], topFixes: [], counts: { errors: 0, warnings: 0, notices: 0 } })),
    );
    assert.match(text(document), /No issues found\./);
    assert.equal(elements(document, 'table').length, 0);
  });
});

describe('the page of an unknown share link', () => {
  it('says the report was not found, in one h1, and is not indexed', () => {
    const document = parseDocument(renderShareNotFoundPage());
    assert.deepEqual(
      elements(document, 'h1').map((heading) => DomUtils.textContent(heading)),
      ['Report not found'],
    );
    const robots = elements(document, 'meta').find((element) => element.attribs.name === 'robots');
    assert.equal(robots?.attribs.content, 'noindex, nofollow');
    assert.equal(elements(document, 'a').length, 0);
  });
});
