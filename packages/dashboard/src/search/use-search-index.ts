import type { SearchIndexState } from '@loupe/contract';
import { useCallback, useEffect, useState } from 'react';
import { useWorkspace } from '../workspace/workspace-context.tsx';

/** While a build runs, the state is read again this often: a build of a few hundred pages takes seconds. */
const POLL_MS = 1000;

/**
 * A project's search index state, read again every second while a build is under way, and
 * `build()` to start one (its answer is the new state, so polling starts at once).
 */
export function useSearchIndex(projectId: string) {
  const { api } = useWorkspace();
  const [state, setState] = useState<SearchIndexState | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [building, setBuilding] = useState(false);
  const [buildError, setBuildError] = useState<unknown>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    api.getSearchIndex({ projectId }, { signal: controller.signal }).then(
      (answer) => {
        setState(answer);
        setError(null);
      },
      (failure: unknown) => controller.signal.aborted || setError(failure),
    );
    return () => controller.abort();
  }, [api, projectId, round]);

  const underway = state?.state === 'building';
  useEffect(() => {
    if (!underway) return;
    const timer = setTimeout(() => setRound((n) => n + 1), POLL_MS);
    return () => clearTimeout(timer);
  }, [underway, state]);

  const build = useCallback(async () => {
    setBuilding(true);
    setBuildError(null);
    try {
      setState(await api.buildSearchIndex({ projectId }));
    } catch (failure) {
      setBuildError(failure);
    } finally {
      setBuilding(false);
    }
  }, [api, projectId]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { state, error, reload, build, building, buildError };
}
