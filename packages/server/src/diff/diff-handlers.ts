import type { Handlers } from '../http/handlers.ts';
import type { DiffService } from './diff-service.ts';

export function diffHandlers(diffs: DiffService): Pick<Handlers, 'diffReports'> {
  return {
    diffReports: ({ query }, { principal }) => diffs.diff(principal, query),
  };
}
