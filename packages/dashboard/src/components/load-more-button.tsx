import type { PagedListState } from './use-paged-list.ts';

/** The "show more" of a list read a page at a time (usePagedList), shown while more items follow. */
export function LoadMoreButton({
  list,
  label = 'Show more',
  className,
}: {
  list: Pick<PagedListState<unknown>, 'hasMore' | 'loadingMore' | 'loadMore'>;
  label?: string;
  className?: string;
}) {
  if (!list.hasMore) return null;
  return (
    <p className={className}>
      <button type="button" className="button" onClick={list.loadMore} disabled={list.loadingMore}>
        {list.loadingMore ? 'Loading…' : label}
      </button>
    </p>
  );
}
