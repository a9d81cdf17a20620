import { Link, useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { ExportButtons } from './export-buttons.tsx';
import { LinkFilterBar } from './link-filter-bar.tsx';
import { isFiltered, type LinkFilters, linkFilterParams, linkFiltersFrom } from './link-filters.ts';
import { LinkPages } from './link-pages.tsx';
import { useCursorPages } from './use-cursor-pages.ts';
import './reports.css';

/** Links shown at a time: a site of 100,000 links is read and rendered 50 at a time. */
export const LINKS_PAGE_SIZE = 50;

/**
 * `/w/:ws/reports/:reportId/links`: every link the crawl found, by the page it is on, filtered
 * by the address's query (`?target=&kind=&status=&reason=`, so a filtered view can be linked);
 * and the broken links to download.
 */
export function LinksPage() {
  const { reportId = '' } = useParams();
  const { api, workspace } = useWorkspace();
  const [params, setParams] = useSearchParams();
  const filters = linkFiltersFrom(params);
  const { target, kind, statusClass, reason } = filters;
  const list = useCursorPages(
    (cursor, signal) =>
      api.page.listReportLinks({ reportId, target, kind, statusClass, reason, limit: LINKS_PAGE_SIZE, cursor }, { signal }),
    [api, reportId, target, kind, statusClass, reason],
  );
  const setFilters = (next: LinkFilters) => setParams(linkFilterParams(next), { preventScrollReset: true });
  return (
    <>
      <p className="breadcrumb">
        <Link to={`/w/${workspace.id}/reports/${reportId}`}>Back to the report</Link>
      </p>
      <PageHeader
        title="Links"
        description="Every link, image, canonical and hreflang the crawl found, by the page it is on, with what its target answered."
        actions={
          <ExportButtons
            exportAs={(format) => api.exportBrokenLinks({ reportId, format })}
            filename={`loupe-broken-links-${reportId}`}
            label={(format) => `Broken links as ${format.toUpperCase()}`}
          />
        }
      />
      <LinkFilterBar filters={filters} onChange={setFilters} />
      <LinkPages
        reportId={reportId}
        list={list}
        pageSize={LINKS_PAGE_SIZE}
        ends="both"
        name="Links of the report"
        loadingLabel="Loading the links"
        empty={<NoLinks filters={filters} />}
      />
    </>
  );
}

function NoLinks({ filters }: { filters: LinkFilters }) {
  if (!isFiltered(filters)) return <EmptyState title="No links">The crawl found no link on any page it fetched.</EmptyState>;
  if (filters.statusClass === 'broken' && !filters.reason)
    return <EmptyState title="No broken links">None of these links is broken: every target that was checked answered.</EmptyState>;
  return <EmptyState title="No link matches">No link of this report matches these filters.</EmptyState>;
}
