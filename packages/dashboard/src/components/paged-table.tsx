import type { ReactNode } from 'react';
import { DataTable, type DataTableProps } from './data-table.tsx';
import { ErrorMessage } from './error-message.tsx';
import { LoadMoreButton } from './load-more-button.tsx';
import { LoadedList } from './loaded-list.tsx';
import type { PagedListState } from './use-paged-list.ts';

export interface PagedTableProps<T> extends Omit<DataTableProps<T>, 'items'> {
  list: PagedListState<T>;
  loadingLabel: string;
  /** What the screen shows for a list with nothing in it (an EmptyState). */
  empty: ReactNode;
  /**
   * The "show more" button (LoadMoreButton's label and class). When it failed, "Try again"
   * reads the list again from its start: the SDK's page reader stops for good after an error,
   * so asking it for the next page again would end the list there.
   */
  more?: { label?: string; className?: string };
}

/** A table read a page at a time (usePagedList): its first load, its rows, and "show more" with that request's failure. */
export function PagedTable<T>({ list, loadingLabel, empty, more = {}, ...table }: PagedTableProps<T>) {
  return (
    <LoadedList<T> list={list} loadingLabel={loadingLabel} empty={empty}>
      {(items) => (
        <>
          <DataTable {...table} items={items} />
          {list.error !== null && <ErrorMessage error={list.error} onRetry={list.reload} />}
          <LoadMoreButton list={list} label={more.label} className={more.className} />
        </>
      )}
    </LoadedList>
  );
}
