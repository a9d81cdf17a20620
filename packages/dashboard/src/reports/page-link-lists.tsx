import { EmptyState } from '../components/empty-state.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { LinkPages } from './link-pages.tsx';
import { useCursorPages } from './use-cursor-pages.ts';

/** Links shown at a time in each of a page's two lists. */
export const PAGE_LINKS_SIZE = 20;

/** A page's place in the site's links: the pages linking to it, and the links it names itself. */
export function PageLinkLists({ reportId, pageId }: { reportId: string; pageId: string }) {
  return (
    <>
      <Inlinks reportId={reportId} pageId={pageId} />
      <Outlinks reportId={reportId} pageId={pageId} />
    </>
  );
}

function Inlinks({ reportId, pageId }: { reportId: string; pageId: string }) {
  const { api } = useWorkspace();
  const list = useCursorPages(
    (cursor, signal) => api.page.listPageInlinks({ reportId, pageId, limit: PAGE_LINKS_SIZE, cursor }, { signal }),
    [api, reportId, pageId],
  );
  return (
    <section className="report-section" aria-labelledby="inlinks-heading">
      <h2 id="inlinks-heading">Links to this page</h2>
      <LinkPages
        reportId={reportId}
        list={list}
        pageSize={PAGE_LINKS_SIZE}
        ends="source"
        name="Links to this page"
        loadingLabel="Loading the links to this page"
        empty={
          <EmptyState title="No page links here">
            None of the crawled pages links to this one: the crawl reached it as its start, from a sitemap or by a redirect.
          </EmptyState>
        }
      />
    </section>
  );
}

function Outlinks({ reportId, pageId }: { reportId: string; pageId: string }) {
  const { api } = useWorkspace();
  const list = useCursorPages(
    (cursor, signal) => api.page.listPageOutlinks({ reportId, pageId, limit: PAGE_LINKS_SIZE, cursor }, { signal }),
    [api, reportId, pageId],
  );
  return (
    <section className="report-section" aria-labelledby="outlinks-heading">
      <h2 id="outlinks-heading">Links on this page</h2>
      <LinkPages
        reportId={reportId}
        list={list}
        pageSize={PAGE_LINKS_SIZE}
        ends="target"
        name="Links on this page"
        loadingLabel="Loading the links on this page"
        empty={
          <EmptyState title="No links on this page">
            The crawl found no link, image, canonical or hreflang here; a URL that answered with an error or without HTML has none.
          </EmptyState>
        }
      />
    </section>
  );
}
