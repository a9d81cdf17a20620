import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AlertEvent } from '@loupe/contract';
import { alertEmail, alertSubject } from './alert-email.ts';

const base: AlertEvent = {
  event: 'crawl.alert',
  deliveryId: '01900000-0000-7000-8000-000000000001',
  test: false,
  project: { id: '01900000-0000-7000-8000-000000000002', name: 'Docs', siteUrl: 'https://docs.example.com/' },
  crawl: {
    id: '01900000-0000-7000-8000-000000000003',
    status: 'completed',
    url: 'https://docs.example.com/',
    finishedAt: '2026-01-01T00:00:00.000Z',
  },
  report: {
    id: '01900000-0000-7000-8000-000000000004',
    score: 62,
    grade: 'D',
    completeness: 'complete',
    pages: 10,
    errors: 12,
    warnings: 4,
    notices: 1,
  },
  previousReport: { id: '01900000-0000-7000-8000-000000000005', score: 71, grade: 'C', createdAt: '2025-12-31T00:00:00.000Z' },
  conditions: [],
  createdAt: '2026-01-01T00:00:01.000Z',
};

describe('alert email', () => {
  it('sums up the score change and new errors in the subject', () => {
    const event: AlertEvent = {
      ...base,
      conditions: [
        { type: 'scoreBelow', threshold: 70, score: 62 },
        { type: 'scoreDropBy', threshold: 5, score: 62, previousScore: 71, previousReportId: base.previousReport!.id },
        { type: 'newErrors', count: 3, previousReportId: base.previousReport!.id, examples: [] },
      ],
    };
    assert.equal(alertSubject(event), '[Loupe] Docs: score 62 (−9), 3 new errors');
  });

  it('names a failed crawl, a score below, one new error and a test alert', () => {
    assert.equal(alertSubject({ ...base, conditions: [{ type: 'crawlFailed', error: null }] }), '[Loupe] Docs: crawl failed');
    assert.equal(alertSubject({ ...base, conditions: [{ type: 'scoreBelow', threshold: 70, score: 62 }] }), '[Loupe] Docs: score 62');
    assert.equal(
      alertSubject({ ...base, conditions: [{ type: 'newErrors', count: 1, previousReportId: base.previousReport!.id, examples: [] }] }),
      '[Loupe] Docs: 1 new error',
    );
    assert.equal(alertSubject({ ...base, test: true, crawl: null, report: null }), '[Loupe] Docs: test alert');
  });

  it('keeps the subject on one line whatever the project is called', () => {
    const subject = alertSubject({ ...base, test: true, project: { ...base.project, name: 'Evil\r\nBcc: x@example.com' } });
    assert.doesNotMatch(subject, /[\r\n]/);
  });

  it('lists the new errors it names and how many more there are', () => {
    const email = alertEmail({
      ...base,
      conditions: [
        {
          type: 'newErrors',
          count: 3,
          previousReportId: base.previousReport!.id,
          examples: [
            { ruleId: 'links/broken', url: 'https://docs.example.com/a' },
            { ruleId: 'robots/missing', url: null },
          ],
        },
      ],
    });
    assert.match(email.text, /3 new errors since the previous report:/);
    assert.match(email.text, /links\/broken on https:\/\/docs\.example\.com\/a/);
    assert.match(email.text, /robots\/missing on the whole site/);
    assert.match(email.text, /and 1 more/);
    assert.match(email.text, /Report: score 62 \(D\), 10 pages, 12 errors, 4 warnings, 1 notice/);
  });

  it('escapes every value in the HTML body', () => {
    const hostile = '<script>alert("x")</script> & \'q\'';
    const email = alertEmail({
      ...base,
      project: { ...base.project, name: hostile, siteUrl: 'https://example.com/?a=<b>' },
      conditions: [{ type: 'crawlFailed', error: '<img src=x onerror=alert(1)>' }],
    });
    assert.doesNotMatch(email.html, /<script>|<img/);
    assert.match(email.html, /&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; &#39;q&#39;/);
    assert.match(email.html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(email.text, /The crawl failed: <img src=x onerror=alert\(1\)>/);
  });
});
