import { type LabFilter, type LabMetric, ListReportPagesQuery, labFilters, type pageSortKeys, type ReportPage } from '@loupe/contract';
import { useId } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorMessage } from '../components/error-message.tsx';
import { LoadingState } from '../components/loading-state.tsx';
import { useWorkspace } from '../workspace/workspace-context.tsx';
import { formatLab, labMetricLabels, labRatingLabels, ratingOf } from './lab-labels.ts';
import { Pager } from './pager.tsx';
import { useCursorPages } from './use-cursor-pages.ts';

/** Rows on one page of the index: a report of 10,000 pages is read and rendered 50 at a time. */
export const PAGE_INDEX_SIZE = 50;

export type PageSort = (typeof pageSortKeys)[number];
export const statusClasses = ListReportPagesQuery.shape.statusClass.unwrap().options;
export type StatusClass = (typeof statusClasses)[number];

export interface PageIndexFilters {
  sort: PageSort;
  order: 'asc' | 'desc';
  ruleId?: string;
  statusClass?: StatusClass;
  lab?: LabFilter;
}

const columns: { key: PageSort; label: string; numeric?: boolean; firstOrder: 'asc' | 'desc' }[] = [
  { key: 'url', label: 'URL', firstOrder: 'asc' },
  { key: 'status', label: 'Status', numeric: true, firstOrder: 'desc' },
  { key: 'score', label: 'Score', numeric: true, firstOrder: 'asc' },
  { key: 'errors', label: 'Errors', numeric: true, firstOrder: 'desc' },
  { key: 'warnings', label: 'Warnings', numeric: true, firstOrder: 'desc' },
  { key: 'notices', label: 'Notices', numeric: true, firstOrder: 'desc' },
  { key: 'depth', label: 'Depth', numeric: true, firstOrder: 'asc' },
  { key: 'inlinks', label: 'Inlinks', numeric: true, firstOrder: 'asc' },
  { key: 'words', label: 'Words', numeric: true, firstOrder: 'asc' },
  { key: 'responseMs', label: 'Time (ms)', numeric: true, firstOrder: 'desc' },
  { key: 'bytes', label: 'Size (KB)', numeric: true, firstOrder: 'desc' },
];

/** A rendering crawl's lab columns, worst first when sorted. */
const labColumns: { key: PageSort & LabMetric; label: string; numeric: true; firstOrder: 'desc' }[] = (
  ['lcpMs', 'cls', 'tbtMs'] as const
).map((key) => ({ key, label: labMetricLabels[key].short, numeric: true, firstOrder: 'desc' }));

function labFilterLabel(filter: LabFilter): string {
  const [metric, rating] = filter.split(':') as [LabMetric, keyof typeof labRatingLabels];
  return `${labMetricLabels[metric].short} ${labRatingLabels[rating]}`;
}

export interface PageIndexProps {
  reportId: string;
  /** The rules that fired on pages of the report, for the rule filter. */
  rules: { id: string; title: string }[];
  filters: PageIndexFilters;
  onFiltersChange: (filters: PageIndexFilters) => void;
  pageHref: (pageId: string) => string;
  /** The crawl rendered its pages: the lab columns and filter are shown. */
  rendered?: boolean;
}

/**
 * The report's page index: sortable by any column the API sorts by, filtered by rule and
 * status class, read one page at a time through the API's cursors (never all at once).
 */
export function PageIndex({ reportId, rules, filters, onFiltersChange, pageHref, rendered = false }: PageIndexProps) {
  const { api } = useWorkspace();
  const id = useId();
  const { sort, order, ruleId, statusClass, lab } = filters;
  const shown = rendered ? [...columns, ...labColumns] : columns;
  const list = useCursorPages(
    (cursor, signal) =>
      api.page.listReportPages({ reportId, sort, order, ruleId, statusClass, lab, limit: PAGE_INDEX_SIZE, cursor }, { signal }),
    [api, reportId, sort, order, ruleId, statusClass, lab],
  );
  const sortBy = (key: PageSort) => {
    const column = shown.find((each) => each.key === key)!;
    onFiltersChange({ ...filters, sort: key, order: key === sort ? (order === 'asc' ? 'desc' : 'asc') : column.firstOrder });
  };
  const { state } = list;
  const filtered = ruleId !== undefined || statusClass !== undefined || lab !== undefined;
  return (
    <div className="page-index-wrap">
      <div className="page-index-filters">
        <div className="field">
          <label htmlFor={`${id}-rule`}>Rule</label>
          <select
            id={`${id}-rule`}
            value={ruleId ?? ''}
            onChange={(event) => onFiltersChange({ ...filters, ruleId: event.target.value || undefined })}
          >
            <option value="">Any rule</option>
            {ruleId && !rules.some((rule) => rule.id === ruleId) && <option value={ruleId}>{ruleId}</option>}
            {rules.map((rule) => (
              <option key={rule.id} value={rule.id}>
                {rule.title}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select
            id={`${id}-status`}
            value={statusClass ?? ''}
            onChange={(event) => onFiltersChange({ ...filters, statusClass: (event.target.value || undefined) as StatusClass | undefined })}
          >
            <option value="">Any status</option>
            {statusClasses.map((status) => (
              <option key={status} value={status}>
                {status === 'failed' ? 'No answer' : status}
              </option>
            ))}
          </select>
        </div>
        {rendered && (
          <div className="field">
            <label htmlFor={`${id}-lab`}>Lab metric</label>
            <select
              id={`${id}-lab`}
              value={lab ?? ''}
              onChange={(event) => onFiltersChange({ ...filters, lab: (event.target.value || undefined) as LabFilter | undefined })}
            >
              <option value="">Any reading</option>
              {labFilters.map((filter) => (
                <option key={filter} value={filter}>
                  {labFilterLabel(filter)}
                </option>
              ))}
            </select>
          </div>
        )}
        {filtered && (
          <button type="button" className="button" onClick={() => onFiltersChange({ sort, order })}>
            Clear filters
          </button>
        )}
      </div>
      {state.status === 'loading' && <LoadingState label="Loading pages" />}
      {state.status === 'failed' && <ErrorMessage error={state.error} onRetry={list.reload} />}
      {state.status === 'done' && state.items.length === 0 && (
        <EmptyState title={filtered ? 'No page matches' : 'No pages'}>
          {filtered ? 'No crawled page matches these filters.' : 'The crawl fetched no page.'}
        </EmptyState>
      )}
      {state.status === 'done' && state.items.length > 0 && (
        <div className="table-scroll">
          <table className="page-index">
            <caption className="visually-hidden">
              Pages of the report, sorted by {shown.find((column) => column.key === sort)?.label}{' '}
              {order === 'asc' ? 'ascending' : 'descending'}
            </caption>
            <thead>
              <tr>
                {shown.map((column) => (
                  <th
                    key={column.key}
                    scope="col"
                    className={column.numeric ? 'numeric' : undefined}
                    aria-sort={column.key === sort ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    <button type="button" className="sort-button" onClick={() => sortBy(column.key)}>
                      {column.label}
                      <span aria-hidden="true">{column.key === sort ? (order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {state.items.map((page) => (
                <PageRow key={page.id} page={page} href={pageHref(page.id)} rendered={rendered} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Page index pages"
        index={list.index}
        hasPrevious={list.hasPrevious}
        hasNext={list.hasNext}
        onPrevious={list.previous}
        onNext={list.next}
      />
    </div>
  );
}

const number = (value: number | null) => (value === null ? '–' : value.toLocaleString('en'));

function PageRow({ page, href, rendered }: { page: ReportPage; href: string; rendered: boolean }) {
  return (
    <tr>
      <td className="page-url">
        <Link to={href}>{page.url}</Link>
        {page.title && <span className="muted page-title">{page.title}</span>}
      </td>
      <td className={`numeric status-code s${String(page.status ?? 0)[0]}`}>{page.status ?? (page.fetchError ? 'failed' : '–')}</td>
      <td className="numeric">{page.score === null ? '–' : Math.round(page.score)}</td>
      <td className="numeric">{page.errors}</td>
      <td className="numeric">{page.warnings}</td>
      <td className="numeric">{page.notices}</td>
      <td className="numeric">{page.depth}</td>
      <td className="numeric">{page.inlinks}</td>
      <td className="numeric">{number(page.words)}</td>
      <td className="numeric">{number(page.responseMs)}</td>
      <td className="numeric">{page.bytes === null ? '–' : (page.bytes / 1024).toFixed(1)}</td>
      {rendered &&
        labColumns.map(({ key }) => (
          <td key={key} className={`numeric lab-value ${ratingOf(key, page[key]) ?? 'unrated'}`}>
            {formatLab(key, page[key])}
          </td>
        ))}
    </tr>
  );
}
