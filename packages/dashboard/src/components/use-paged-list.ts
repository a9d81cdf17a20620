import { useCallback, useEffect, useRef, useState } from 'react';

export type PagedListState<T> = {
  status: 'loading' | 'failed' | 'done';
  items: T[];
  /** The failure of the first load, or of the latest "show more". */
  error: unknown;
  /** Whether another item exists: the look-ahead item is held back until `loadMore`. */
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  reload: () => void;
};

/**
 * A list shown `pageSize` items at a time from an SDK iterator (`api.all.<list>`), which
 * requests the next page only when the loop needs it. One item more than shown is read ahead,
 * so "show more" appears only when there is more: ask the API for pages of `pageSize + 1`
 * and the look-ahead comes from the same answer. Leaving the screen, or a change of
 * `dependencies`, aborts the requests under way.
 *
 * @example
 * const hits = usePagedList((signal) => api.all.searchProject({ projectId, q, limit: 21 }, { signal }), [api, projectId, q], 20);
 */
export function usePagedList<T>(
  open: (signal: AbortSignal) => AsyncIterable<T>,
  dependencies: readonly unknown[],
  pageSize: number,
): PagedListState<T> {
  const [state, setState] = useState<Omit<PagedListState<T>, 'loadMore' | 'reload'>>({
    status: 'loading',
    items: [],
    error: null,
    hasMore: false,
    loadingMore: false,
  });
  const [round, setRound] = useState(0);
  const cursor = useRef<{ iterator: AsyncIterator<T>; ahead: IteratorResult<T> | undefined; busy: boolean } | null>(null);
  const run = useCallback(open, dependencies);
  const lastRun = useRef(run);

  const take = useCallback(
    async (reading: NonNullable<typeof cursor.current>): Promise<{ items: T[]; more: boolean }> => {
      const items: T[] = [];
      let next = reading.ahead ?? (await reading.iterator.next());
      while (!next.done && items.length < pageSize) {
        items.push(next.value);
        next = await reading.iterator.next();
      }
      reading.ahead = next.done ? undefined : next;
      return { items, more: !next.done };
    },
    [pageSize],
  );

  useEffect(() => {
    const controller = new AbortController();
    const reading = { iterator: run(controller.signal)[Symbol.asyncIterator](), ahead: undefined, busy: true };
    cursor.current = reading;
    // A reload keeps the list on screen until the new one arrives; another list (new inputs) must not show the previous one.
    if (lastRun.current !== run) setState({ status: 'loading', items: [], error: null, hasMore: false, loadingMore: false });
    lastRun.current = run;
    take(reading).then(
      ({ items, more }) => {
        reading.busy = false;
        if (cursor.current === reading) setState({ status: 'done', items, error: null, hasMore: more, loadingMore: false });
      },
      (error: unknown) => {
        reading.busy = false;
        if (cursor.current === reading && !controller.signal.aborted)
          setState({ status: 'failed', items: [], error, hasMore: false, loadingMore: false });
      },
    );
    return () => controller.abort();
  }, [run, round, take]);

  const loadMore = useCallback(() => {
    const reading = cursor.current;
    if (!reading || reading.busy) return;
    reading.busy = true;
    setState((previous) => ({ ...previous, loadingMore: true, error: null }));
    take(reading).then(
      ({ items, more }) => {
        reading.busy = false;
        if (cursor.current === reading)
          setState((previous) => ({ ...previous, items: [...previous.items, ...items], hasMore: more, loadingMore: false }));
      },
      (error: unknown) => {
        reading.busy = false;
        if (cursor.current === reading) setState((previous) => ({ ...previous, error, loadingMore: false }));
      },
    );
  }, [take]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, loadMore, reload };
}
