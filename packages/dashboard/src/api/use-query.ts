import { useCallback, useEffect, useRef, useState } from 'react';

export type QueryState<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'failed'; data?: undefined; error: unknown }
  | { status: 'done'; data: T; error?: undefined };

/**
 * Runs `load` when the component mounts and whenever `dependencies` change (the list is
 * `load`'s inputs, as for useCallback); `reload` runs it again after a change, keeping the
 * current data on screen meanwhile. An answer overtaken by a newer request is dropped.
 *
 * @example
 * const projects = useQuery(() => api.listImageProjects({ limit: 100 }), [api]);
 */
export function useQuery<T>(load: () => Promise<T>, dependencies: readonly unknown[]): QueryState<T> & { reload: () => void } {
  const [state, setState] = useState<QueryState<T>>({ status: 'loading' });
  const [round, setRound] = useState(0);
  const run = useCallback(load, dependencies);
  const lastRun = useRef(run);

  useEffect(() => {
    // Another query (another workspace, say) must not show the previous one's data while it loads.
    if (lastRun.current !== run) setState({ status: 'loading' });
    lastRun.current = run;
    let current = true;
    run().then(
      (data) => current && setState({ status: 'done', data }),
      (error: unknown) => current && setState({ status: 'failed', error }),
    );
    return () => {
      current = false;
    };
  }, [run, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}
