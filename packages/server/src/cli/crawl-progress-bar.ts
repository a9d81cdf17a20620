import type { CrawlProgress } from '@loupe/contract';
import type { BarState } from './progress-bar.ts';

const count = (n: number) => n.toLocaleString('en');
const rate = (perSecond: number | null) => (perSecond === null ? '' : ` (${count(perSecond)}/s)`);

/**
 * A crawl's progress as the CLI's bar shows it: what it is doing and how far, e.g.
 * `pages 500/500 · checking links 1,200/3,644 (85/s)`, then `… · building report`.
 * The bar fills with the phase's own count: pages of maxPages, then links, then full.
 */
export function crawlProgressBar(progress: CrawlProgress, maxPages: number, lastUrl: string): BarState {
  const { pages, links } = progress;
  const pagesText = `pages ${count(pages.done)}/${count(pages.total)}`;
  const linksText = `links ${count(links.done)}/${count(links.total)}`;
  const withLinks = (text: string) => (links.total > 0 ? `${text} · ${linksText}` : text);
  switch (progress.phase) {
    case 'pages':
      // Before the first URL is queued (robots.txt and the sitemaps are read first).
      if (pages.total === 0) return { current: 0, total: 1, text: 'starting the crawl', stage: 'pages' };
      return {
        current: pages.done,
        total: Math.max(maxPages, 1),
        text: withLinks(`crawling ${pagesText}${rate(progress.pagesPerSecond)}`),
        stage: 'pages',
        label: lastUrl,
      };
    case 'links':
      return {
        current: links.done,
        total: Math.max(links.total, 1),
        text: `${pagesText} · checking ${linksText}${rate(progress.linksPerSecond)}`,
        stage: 'links',
      };
    case 'report':
      return { current: 1, total: 1, text: `${withLinks(pagesText)} · building report`, stage: 'report' };
    case 'done':
      return { current: 1, total: 1, text: `${withLinks(pagesText)} · done`, stage: 'done' };
  }
}
