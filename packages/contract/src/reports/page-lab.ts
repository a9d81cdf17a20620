import { z } from 'zod';

export const resourceKinds = ['document', 'script', 'stylesheet', 'image', 'font', 'fetch', 'media', 'other'] as const;
export type ResourceKind = (typeof resourceKinds)[number];

const Transferred = z.object({ requests: z.number().int().min(0), bytes: z.number().int().min(0) });

/** What the page's own performance APIs said once it settled (web-vitals' definitions). */
export const PageLabMetrics = z
  .object({
    lcpMs: z.number().nullable().describe('Largest contentful paint, ms from navigation start; null when nothing was painted.'),
    fcpMs: z.number().nullable().describe('First contentful paint.'),
    cls: z.number().describe("Cumulative layout shift: web-vitals' largest session window."),
    tbtMs: z.number().describe('Total blocking time: the part over 50 ms of each long task after first contentful paint.'),
    longTasks: z.number().int(),
    ttfbMs: z.number().nullable().describe('Time to first byte of the document, as the browser saw it.'),
    renderBlocking: z.array(z.string()).describe('Resources the browser marked render-blocking (at most 50 listed).'),
  })
  .meta({ id: 'PageLabMetrics' });
export type PageLabMetrics = z.infer<typeof PageLabMetrics>;

export const TransferSummary = z
  .object({
    requests: z.number().int().min(0),
    bytes: z.number().int().min(0).describe('On the wire: headers and compressed bodies.'),
    byKind: z.record(z.enum(resourceKinds), Transferred),
    blocked: z.array(z.string()).describe('Requests the address guard refused (at most 20 listed).'),
    failed: z.number().int().min(0),
  })
  .meta({ id: 'TransferSummary' });
export type TransferSummary = z.infer<typeof TransferSummary>;

/** One rendered page's lab reading, as a rendering crawl keeps it (issue #28). */
export const PageLab = z
  .object({
    settled: z.boolean().describe('The network went quiet within the settle budget after load.'),
    error: z
      .string()
      .nullable()
      .describe(
        "Why the rendered DOM does not stand for the page: 'timeout' (the page's budget ran out), 'crashed' (the tab died), 'dom-too-large' (past the crawler's 10 MiB body limit), 'navigated-away: <url>' (a script left the site), 'navigation: …', 'browser: …'; null when it rendered.",
      ),
    durationMs: z.number().int().min(0),
    metrics: PageLabMetrics.nullable().describe('Null when the page failed before they could be read.'),
    transfer: TransferSummary,
  })
  .meta({ id: 'PageLab' });
export type PageLab = z.infer<typeof PageLab>;
