import type { RuleMetric } from '@loupe/contract';
import type { StoredPage } from '../audit/stored-page-store.ts';
import type { RuleSubject } from './rule-subject.ts';

/**
 * A stored page as custom rules see it, the same in a crawl's report and in a preview. A
 * metric the crawl did not record (an older crawl's link counts) is left out, so conditions
 * on it are unknown rather than compared with a made-up zero.
 */
export function storedPageSubject(page: StoredPage): RuleSubject {
  const summary = page.summary;
  const metrics: Partial<Record<RuleMetric, number>> = {};
  const set = (name: RuleMetric, value: number | null | undefined) => {
    if (value !== null && value !== undefined) metrics[name] = value;
  };
  set('responseMs', page.responseMs);
  set('ttfbMs', page.ttfbMs);
  set('bytes', page.bytes);
  set('depth', page.depth);
  set('inlinks', page.inlinks);
  set('redirectHops', page.redirectHops);
  if (summary) {
    set('wordCount', summary.wordCount);
    set('linkCount', summary.linkCount);
    set('internalLinkCount', summary.internalLinkCount);
    set('externalLinkCount', summary.externalLinkCount);
    set('imageCount', summary.imageCount);
    set('titleLength', summary.titleLength);
    set('descriptionLength', summary.descriptionLength);
  }
  return {
    url: page.url,
    status: page.status,
    headers: page.headers,
    contentType: page.contentType,
    html: page.html,
    renderedHtml: page.renderedHtml,
    visibleText: summary ? (page.text ?? '') : null,
    title: summary?.title ?? null,
    indexable: page.indexable,
    metrics,
  };
}
