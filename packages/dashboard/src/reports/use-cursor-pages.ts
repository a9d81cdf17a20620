import type { Page } from '@loupe/sdk';
import { useCallback, useEffect, useState } from 'react';

export type CursorPagesState<T> =
  | { status: 'loading'; items?: undefined; error?: undefined }
  | { status: 'failed'; items?: undefined; error: unknown }
  | { status: 'done'; items: T[]; error?: undefined };

export interface CursorPages<T> {
  state: CursorPagesState<T>;
  /** 0 for the first page. */
  index: number;
  hasNext: boolean;
  hasPrevious: boolean;
  next(): void;
  previous(): void;
  reload(): void;
}

/** Where one list stands: the pages seen, the cursor of each (undefined: the first), the one shown. */
interface Walk<T> {
  /** The list it walks: the `load` of these dependencies, and the reload round. */
  list: unknown;
  round: number;
  pages: (Page<T> | undefined)[];
  cursors: (string | undefined)[];
  index: number;
  failure: { error: unknown } | null;
}

const start = <T>(list: unknown, round: number): Walk<T> => ({ list, round, pages: [], cursors: [undefined], index: 0, failure: null });

/**
 * One page of a long list at a time, with Previous and Next, following the API's cursors:
 * `load` asks the SDK for one page (`api.page.<list>`), which answers its items and the
 * cursor of the next. Pages already seen are kept, so going back costs no request; a list of
 * 10,000 report pages is never fetched or rendered whole. (The shared usePagedList appends
 * pages under a "show more" instead; a page index stays one page.) A change of
 * `dependencies` (another sort or filter) starts again at the first page, never showing the
 * previous list meanwhile; leaving the screen or changing list aborts the request under way.
 *
 * @example
 * const pages = useCursorPages((cursor, signal) => api.page.listReportPages({ reportId, sort, limit: 50, cursor }, { signal }), [api, reportId, sort]);
 */
export function useCursorPages<T>(
  load: (cursor: string | undefined, signal: AbortSignal) => Promise<Page<T>>,
  dependencies: readonly unknown[],
): CursorPages<T> {
  const loadPage = useCallback(load, dependencies);
  const [round, setRound] = useState(0);
  const [stored, setWalk] = useState<Walk<T>>(() => start(loadPage, round));
  // Another list (new inputs, or a reload) starts from its first page in this very render.
  const current = stored.list === loadPage && stored.round === round ? stored : start<T>(loadPage, round);
  if (current !== stored) setWalk(current);

  const { pages, cursors, index, failure } = current;
  const loaded = pages[index];
  const cursor = cursors[index];
  useEffect(() => {
    if (loaded) return;
    const controller = new AbortController();
    loadPage(cursor, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setWalk((walk) =>
          walk.list === loadPage && walk.round === round
            ? { ...walk, pages: Object.assign([...walk.pages], { [index]: page }), failure: null }
            : walk,
        );
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setWalk((walk) => (walk.list === loadPage && walk.round === round ? { ...walk, failure: { error } } : walk));
      },
    );
    return () => controller.abort();
  }, [loadPage, round, loaded, index, cursor]);

  const next = useCallback(() => {
    const following = loaded?.nextCursor;
    if (!following) return;
    setWalk((walk) => ({
      ...walk,
      cursors: walk.cursors.length > walk.index + 1 ? walk.cursors : [...walk.cursors, following],
      index: walk.index + 1,
      failure: null,
    }));
  }, [loaded]);

  const previous = useCallback(() => setWalk((walk) => (walk.index === 0 ? walk : { ...walk, index: walk.index - 1, failure: null })), []);

  const reload = useCallback(() => setRound((n) => n + 1), []);

  const state: CursorPagesState<T> = failure
    ? { status: 'failed', error: failure.error }
    : loaded
      ? { status: 'done', items: loaded.items }
      : { status: 'loading' };
  return { state, index, hasNext: Boolean(loaded?.nextCursor), hasPrevious: index > 0, next, previous, reload };
}
