import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import axe from 'axe-core';
import type { AccessibilityViolation } from '../../rendering/accessibility-check.ts';
import { pageRules } from './index.ts';
import { check, compliantHtml, compliantPage, firing, renderedPage } from './test-page.ts';

/** The axe rules a catalog check already makes (images/alt-missing, headings/h1-missing, …). */
const REPEATED = ['document-title', 'heading-order', 'image-alt', 'meta-viewport', 'page-has-heading-one'];

function violation(overrides: Partial<AccessibilityViolation> = {}): AccessibilityViolation {
  return {
    rule: 'color-contrast',
    impact: 'serious',
    description: 'Elements must meet minimum color contrast ratio thresholds',
    helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/color-contrast?application=axeAPI',
    wcag: ['wcag2aa', '1.4.3'],
    elements: [{ selector: '.hint', html: '<p class="hint">Steep for 2 minutes</p>' }],
    elementCount: 1,
    ...overrides,
  };
}

/** A rendered page on which axe found `violations` (none: axe ran and passed it). */
function axed(violations: AccessibilityViolation[], html = compliantHtml()) {
  return renderedPage(html, html, { accessibility: violations });
}

describe('the axe-core rules', () => {
  it('are one rule per axe-core rule, named accessibility/axe-<rule>, titled as axe says', () => {
    const rules = pageRules.filter((rule) => rule.category === 'accessibility');
    assert.deepEqual(
      rules.map((rule) => rule.id),
      axe
        .getRules()
        .filter((rule) => !REPEATED.includes(rule.ruleId))
        .map((rule) => `accessibility/axe-${rule.ruleId}`),
    );
    const contrast = rules.find((rule) => rule.id === 'accessibility/axe-color-contrast');
    assert.equal(contrast?.title, 'Elements must meet minimum color contrast ratio thresholds');
    assert.match(contrast?.fix ?? '', /https:\/\/dequeuniversity\.com\/rules\/axe\/[\d.]+\/color-contrast explains/);
  });

  it("take their severity from axe's impact on WCAG rules: critical and serious are warnings, moderate and minor notices", () => {
    const severity = (id: string) => pageRules.find((rule) => rule.id === `accessibility/axe-${id}`)?.severity;
    // In axe-core 4: button-name is critical, color-contrast serious, no-autoplay-audio moderate, server-side-image-map minor.
    assert.deepEqual(['button-name', 'color-contrast', 'no-autoplay-audio', 'server-side-image-map'].map(severity), [
      'warning',
      'warning',
      'notice',
      'notice',
    ]);
  });

  it("make axe's best practices notices, however serious (accesskeys is, region is moderate)", () => {
    const severity = (id: string) => pageRules.find((rule) => rule.id === `accessibility/axe-${id}`)?.severity;
    assert.deepEqual(['accesskeys', 'region'].map(severity), ['notice', 'notice']);
    const serious = violation({ rule: 'region', impact: 'serious', wcag: [] });
    assert.equal(check('accessibility/axe-region', axed([serious]))?.severity, undefined);
  });

  it('leave to the catalog the axe rules that repeat its checks', () => {
    const ids = new Set(pageRules.map((rule) => rule.id));
    assert.deepEqual(
      REPEATED.filter((id) => ids.has(`accessibility/axe-${id}`)),
      [],
    );
    const page = axed([violation({ rule: 'image-alt', impact: 'critical' })]);
    assert.deepEqual(
      firing(page).filter((id) => id.startsWith('accessibility')),
      [],
    );
  });

  it('fire on nothing outside a rendering crawl, or when axe passed the page', () => {
    const axeIds = (ids: string[]) => ids.filter((id) => id.startsWith('accessibility/'));
    assert.deepEqual(axeIds(firing(compliantPage())), []);
    assert.deepEqual(axeIds(firing(axed([]))), []);
  });

  it('turn a violation into a finding: offending elements as samples, impact, WCAG and help in the detail', () => {
    const elements = ['.hint', '.note', 'footer p', 'nav a'].map((selector) => ({ selector, html: `<p class="x">${selector}</p>` }));
    assert.deepEqual(check('accessibility/axe-color-contrast', axed([violation({ elements, elementCount: 27 })])), {
      count: 27,
      samples: ['.hint: <p class="x">.hint</p>', '.note: <p class="x">.note</p>', 'footer p: <p class="x">footer p</p>'],
      more: ['nav a: <p class="x">nav a</p>'],
      detail: 'serious · 27 elements · WCAG wcag2aa, 1.4.3 · https://dequeuniversity.com/rules/axe/4.14/color-contrast',
    });
  });

  it('raise a notice-level WCAG rule to a warning when the violation found is critical or serious', () => {
    const audio = violation({ rule: 'no-autoplay-audio', impact: 'serious', wcag: ['wcag2a', '1.4.2'] });
    assert.equal(check('accessibility/axe-no-autoplay-audio', axed([audio]))?.severity, 'warning');
    assert.equal(check('accessibility/axe-no-autoplay-audio', axed([{ ...audio, impact: 'moderate' }]))?.severity, undefined);
    assert.equal(check('accessibility/axe-color-contrast', axed([violation({ impact: 'minor' })]))?.severity, undefined);
  });

  it('fire each on its own violation only', () => {
    const page = axed([violation(), violation({ rule: 'button-name', impact: 'critical' })]);
    assert.deepEqual(
      firing(page).filter((id) => id.startsWith('accessibility')),
      ['accessibility/axe-button-name', 'accessibility/axe-color-contrast'],
    );
  });
});

describe('accessibility-basic beside axe-core', () => {
  const broken = compliantHtml({
    lang: null,
    extraBody: '<a href="/x"></a><button></button><input name="q"><iframe src="/map"></iframe><i id="d"></i><b id="d"></b>',
  });
  const basic = (ids: string[]) => ids.filter((id) => id.startsWith('accessibility-basic/'));

  it('decides on the rendered DOM when axe did not run', () => {
    assert.deepEqual(basic(firing(renderedPage(compliantHtml(), broken))), [
      'accessibility-basic/html-lang-missing',
      'accessibility-basic/link-no-name',
      'accessibility-basic/button-no-name',
      'accessibility-basic/input-no-label',
      'accessibility-basic/iframe-no-title',
      'accessibility-basic/duplicate-id',
    ]);
  });

  it('leaves the checks axe makes to axe once it ran, keeping duplicate-id, which axe no longer runs', () => {
    assert.deepEqual(basic(firing(axed([], broken))), ['accessibility-basic/duplicate-id']);
  });
});
