import type { Handlers } from '../http/handlers.ts';
import type { SearchService } from './search-service.ts';

type SearchHandlers = Pick<Handlers, 'buildSearchIndex' | 'getSearchIndex' | 'searchProject'>;

export function searchHandlers(search: SearchService): SearchHandlers {
  return {
    buildSearchIndex: ({ params }, { principal }) => search.build(principal, params.projectId),
    getSearchIndex: ({ params }, { principal }) => search.state(principal, params.projectId),
    searchProject: ({ params, query }, { principal }) => search.search(principal, params.projectId, query),
  };
}
