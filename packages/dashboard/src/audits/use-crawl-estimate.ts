import type { CrawlEstimate, StartProjectCrawl } from '@loupe/contract';
import { useEffect, useState } from 'react';
import { useWorkspace } from '../workspace/workspace-context.tsx';

export type EstimateState =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'failed'; data?: undefined; error: unknown }
  | { status: 'done'; data: CrawlEstimate; error?: undefined };

/** Typing settles before the server is asked again. */
const QUIET_MS = 250;

/**
 * What starting the project's crawl with `body` would reserve, asked of the server
 * (estimateProjectCrawl: its own rule, plan cap and project defaults included), again each
 * time the body changes. The previous answer stays on screen while the next one is asked.
 */
export function useCrawlEstimate(projectId: string, body: StartProjectCrawl): EstimateState {
  const { api } = useWorkspace();
  const [state, setState] = useState<EstimateState>({ status: 'loading' });
  const key = JSON.stringify(body);
  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api.estimateProjectCrawl({ projectId, body: JSON.parse(key) as StartProjectCrawl }, { signal: controller.signal }).then(
        (data) => setState({ status: 'done', data }),
        (error: unknown) => {
          if (!controller.signal.aborted) setState({ status: 'failed', error });
        },
      );
    }, QUIET_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, projectId, key]);
  return state;
}
