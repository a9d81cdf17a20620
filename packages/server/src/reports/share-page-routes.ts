import type { FastifyInstance } from 'fastify';
import type { ReportService } from './report-service.ts';
import { renderSharedReportPage, renderShareNotFoundPage } from './share-page.ts';

/**
 * `GET /r/{token}`: a shared report as a page for people, outside the JSON API. The page is
 * static HTML with inline styles only, so its CSP forbids everything else; it must not be
 * indexed, and its secret URL must not leak to the sites it links to.
 */
export function registerSharePageRoutes(app: FastifyInstance, reports: ReportService): void {
  app.get<{ Params: { token: string } }>('/r/:token', async (request, reply) => {
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex, nofollow')
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'");
    const { token } = request.params;
    const shared = /^[A-Za-z0-9_-]{16,64}$/.test(token) ? await reports.sharedPageOrNull(token) : null;
    if (!shared) return reply.code(404).send(renderShareNotFoundPage());
    // A link, not an image: the page's CSP fetches nothing, and a screenshot is opened when wanted.
    const screenshotUrl = (pageId: string | null) =>
      pageId !== null && shared.screenshots.has(pageId) ? `/api/v1/shared/${token}/pages/${pageId}/screenshot` : null;
    return reply.send(renderSharedReportPage(shared.report, { jsonUrl: `/api/v1/shared/${token}`, screenshotUrl }));
  });
}
