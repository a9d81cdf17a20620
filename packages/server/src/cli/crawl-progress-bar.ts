import type { CrawlProgress } from '@loupe/contract';
import type { BarState } from './progress-bar.ts';

const count = (n: number) => n.toLocaleString('en');
const rate = (perSecond: number | null) => (perSecond === null ? '' : ` (${count(perSecond)}/s)`);

/** `· 45s left`, `· 12m 5s left`, `· 2h 10m left`; nothing while unknown. */
export function timeLeft(seconds: number | null): string {
  if (seconds === null) return '';
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const text = h > 0 ? `${h}h ${m}m` : m > 0 ? `${m}m ${s}s` : `${s}s`;
  return ` · ${text} left`;
}

/** `· 3 errors (4xx 2, dns 1)`, most first; nothing while there are none. */
export function errorsSoFar(errors: Record<string, number>): string {
  const kinds = Object.entries(errors).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const total = kinds.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return '';
  return ` · ${count(total)} error${total === 1 ? '' : 's'} (${kinds.map(([kind, n]) => `${kind} ${count(n)}`).join(', ')})`;
}

/**
 * A crawl's progress as the CLI's bar shows it: what it is doing and how far, e.g.
 * `pages 500/500 · checking links 1,200/3,644 (85/s) · 29s left · 3 errors (4xx 2, dns 1)`,
 * then `… · building report`.
 * The bar fills with the phase's own count: pages of maxPages, then links, then full.
 */
export function crawlProgressBar(progress: CrawlProgress, maxPages: number, lastUrl: string): BarState {
  const { pages, links } = progress;
  const pagesText = `pages ${count(pages.done)}/${count(pages.total)}`;
  const linksText = `links ${count(links.done)}/${count(links.total)}`;
  const withLinks = (text: string) => (links.total > 0 ? `${text} · ${linksText}` : text);
  const errors = errorsSoFar(progress.errors);
  switch (progress.phase) {
    case 'pages':
      // Before the first URL is queued (robots.txt and the sitemaps are read first).
      if (pages.total === 0) return { current: 0, total: 1, text: 'starting the crawl', stage: 'pages' };
      return {
        current: pages.done,
        total: Math.max(maxPages, 1),
        text: `${withLinks(`crawling ${pagesText}${rate(progress.pagesPerSecond)}`)}${timeLeft(progress.secondsLeft)}${errors}`,
        stage: 'pages',
        label: lastUrl,
      };
    case 'links':
      return {
        current: links.done,
        total: Math.max(links.total, 1),
        text: `${pagesText} · checking ${linksText}${rate(progress.linksPerSecond)}${timeLeft(progress.secondsLeft)}${errors}`,
        stage: 'links',
      };
    case 'report':
      return { current: 1, total: 1, text: `${withLinks(pagesText)} · building report${errors}`, stage: 'report' };
    case 'done':
      return { current: 1, total: 1, text: `${withLinks(pagesText)} · done${errors}`, stage: 'done' };
  }
}
