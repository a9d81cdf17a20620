import type { ReactNode } from 'react';
import type { QueryState } from '../api/use-query.ts';
import { ErrorMessage } from './error-message.tsx';
import { LoadingState } from './loading-state.tsx';

/**
 * Where the first load of a list stands, and how to read it again: usePagedList's state is one
 * as it is; useCursorPages' `state` with its `reload`; useQuery's through `queriedList`.
 */
export type ListLoad<T> = ({ status: 'loading' } | { status: 'failed'; error: unknown } | { status: 'done'; items: readonly T[] }) & {
  reload: () => void;
};

/** A list read whole by useQuery, its answer as the items. */
export function queriedList<T>(query: QueryState<readonly T[]> & { reload: () => void }): ListLoad<T> {
  return query.status === 'done' ? { status: 'done', items: query.data, reload: query.reload } : query;
}

/**
 * A list's first load as the user sees it: the spinner while it loads, the failure with
 * "Try again", `empty` when there is nothing in it, and `children` once there is.
 */
export function LoadedList<T>({
  list,
  loadingLabel,
  empty,
  children,
}: {
  list: ListLoad<T>;
  loadingLabel: string;
  empty: ReactNode;
  children: (items: readonly T[]) => ReactNode;
}) {
  if (list.status === 'loading') return <LoadingState label={loadingLabel} />;
  if (list.status === 'failed') return <ErrorMessage error={list.error} onRetry={list.reload} />;
  return list.items.length === 0 ? empty : children(list.items);
}
