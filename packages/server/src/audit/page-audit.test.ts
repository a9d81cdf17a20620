import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditPage } from './page-audit.ts';
import { compliantHtml, goodLab, renderedPage } from './page-rules/test-page.ts';

describe('auditPage on a page of a rendering crawl', () => {
  it("stores the rendering checks' findings at their catalog severity, or the one the finding raised", () => {
    const lab = goodLab();
    const page = renderedPage(compliantHtml({ body: '<div id="app"></div>' }), compliantHtml(), {
      lab: { ...lab, metrics: lab.metrics && { ...lab.metrics, lcpMs: 5_200 } },
      accessibility: [
        {
          rule: 'color-contrast',
          impact: 'serious',
          description: 'Elements must meet minimum color contrast ratio thresholds',
          helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/color-contrast?application=axeAPI',
          wcag: ['wcag2aa', '1.4.3'],
          elements: [{ selector: '.hint', html: '<p class="hint">Steep</p>' }],
          elementCount: 1,
        },
      ],
    });
    const stored = auditPage(page).findings.map((finding) => [finding.rule_id, finding.severity, finding.count]);
    assert.deepEqual(stored, [
      ['indexability/js-only-content', 'warning', 3],
      ['performance/slow-lcp', 'warning', 1],
      ['accessibility/axe-color-contrast', 'warning', 1],
    ]);
  });

  it('summarizes the rendered page: its words are what a browser showed', () => {
    const page = renderedPage(compliantHtml({ body: '<div id="app"></div>' }), compliantHtml());
    assert.equal(auditPage(page).result.word_count, 257);
  });
});
