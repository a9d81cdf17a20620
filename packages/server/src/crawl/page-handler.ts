import type { AuditedPage } from '../page-facts/audited-page.ts';
import type { RecordedPage } from './frontier-store.ts';

/**
 * What the crawler does with each page it fetched, as Crawlee's request handler: whoever
 * runs the crawl supplies it (the audit's page checks), so the crawler knows no rules. Its
 * answer is stored with the page: columns of the page's row, and its findings.
 */
export type PageHandler = (page: AuditedPage) => Pick<RecordedPage, 'result' | 'findings'>;
