import type { RuleMetric } from '@loupe/contract';
import type { AnyNode } from 'domhandler';
import { findOne, getElementsByTagName, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import type { RuleSubject } from './rule-subject.ts';

const HIDDEN = new Set(['script', 'style', 'noscript', 'template']);

function visibleText(nodes: readonly AnyNode[], into: string[]): void {
  for (const node of nodes) {
    if (node.type === 'text') into.push(node.data);
    else if ('children' in node && !('name' in node && HIDDEN.has(node.name))) {
      visibleText(node.children, into);
      if ('name' in node) into.push(' ');
    }
  }
}

/**
 * A subject built from an HTML answer alone: title and visible text read from the markup,
 * word count from the text. For tests, benchmarks, and pages stored without the crawl's own
 * facts; a crawl passes what it measured instead.
 */
export function htmlSubject(page: {
  url: string;
  html: string;
  status?: number | null;
  headers?: Record<string, string>;
  indexable?: boolean;
  metrics?: Partial<Record<RuleMetric, number>>;
}): RuleSubject {
  const document = parseDocument(page.html);
  const title = findOne((element) => element.name === 'title', document.children);
  const body = getElementsByTagName('body', document, true, 1)[0];
  const parts: string[] = [];
  visibleText(body ? body.children : document.children, parts);
  const text = parts.join('').replace(/\s+/g, ' ').trim();
  const headers = { 'content-type': 'text/html; charset=utf-8', ...page.headers };
  return {
    url: page.url,
    status: page.status === undefined ? 200 : page.status,
    headers,
    contentType: headers['content-type'] ?? null,
    html: page.html,
    visibleText: text,
    title: title ? textContent(title).trim() : null,
    indexable: page.indexable ?? true,
    metrics: { wordCount: text === '' ? 0 : text.split(' ').length, ...page.metrics },
  };
}
