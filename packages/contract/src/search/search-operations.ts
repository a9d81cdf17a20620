import { ProjectParams } from '../audit-projects/audit-project-operations.ts';
import { defineOperation } from '../operation.ts';
import { SearchHit, SearchIndexState, SearchProjectQuery } from './search-index.ts';

export const searchOperations = [
  defineOperation({
    id: 'buildSearchIndex',
    api: 'workspace',
    method: 'POST',
    path: '/api/v1/projects/{projectId}/search-index',
    summary: "Build a project's search index",
    description:
      "Indexes the pages of the project's newest report (answering 2xx with text) in the background and answers the index's state. Queries keep reading the previous index until the new one is complete, then switch at once; a failed build leaves the previous index answering. One build runs at a time per project: asking again meanwhile answers the running build's state. 409 project_not_crawled before the project has a report. Free. Next: getSearchIndex until state is ready, then searchProject.",
    tag: 'Search',
    // Building changes what the project answers, as the project's other settings do.
    scopes: ['projects:write'],
    params: ProjectParams,
    output: SearchIndexState,
    status: 202,
    errors: ['project_not_crawled'],
  }),
  defineOperation({
    id: 'getSearchIndex',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/projects/{projectId}/search-index',
    summary: "A project's search index state",
    description:
      'Whether the index is none, building, ready or failed; which report it holds, how many pages, and the progress of a build under way. Free.',
    tag: 'Search',
    scopes: ['search:read'],
    params: ProjectParams,
    output: SearchIndexState,
  }),
  defineOperation({
    id: 'searchProject',
    api: 'workspace',
    method: 'GET',
    path: '/api/v1/projects/{projectId}/search',
    summary: "Search a project's pages",
    description:
      "Pages of the project's search index matching q, most relevant first (a match in the title counts more than one in the text; words match their other forms, as roses and rose), each with an HTML snippet marking the matched words. The best 1,000 hits can be paged through; a cursor stops working when the index is rebuilt (400, search again). 409 search_index_not_built before the first build completes. Free.",
    tag: 'Search',
    scopes: ['search:read'],
    params: ProjectParams,
    query: SearchProjectQuery,
    paged: true,
    output: SearchHit,
    errors: ['search_index_not_built'],
  }),
];
