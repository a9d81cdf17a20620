import type { Crawl } from '@loupe/contract';

const labels: Record<Crawl['status'], string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
};

/** A crawl's state in words, coloured by how it went. */
export function CrawlStatusBadge({ status }: { status: Crawl['status'] }) {
  return <span className={`badge crawl-status ${status}`}>{labels[status]}</span>;
}
