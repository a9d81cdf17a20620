import type { ImageProjectWithStats } from '@loupe/contract';
import { useOutletContext } from 'react-router';

export interface ImageProjectContext {
  project: ImageProjectWithStats;
  /** The project's address in the dashboard, `/w/<ws>/images/<projectId>`, for links between its tabs. */
  base: string;
  /** Reads the project again (after an upload changes its stats, or signing changes `requireSignedUrls`). */
  reload(): void;
}

/** The project of the screen, for the tabs under `/w/:ws/images/:projectId` (ProjectLayout loads it). */
export function useImageProject(): ImageProjectContext {
  return useOutletContext<ImageProjectContext>();
}
