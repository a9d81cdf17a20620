import { z } from 'zod';
import { Id, Timestamp } from '../common/resource.ts';
import { SearchText } from './search-query.ts';

export const SearchIndexStatus = z.enum(['none', 'building', 'ready', 'failed']);

/** A project's search index (DESIGN.md §8): the one queries read, and the build under way if any. */
export const SearchIndexState = z
  .object({
    projectId: Id,
    state: SearchIndexStatus.describe(
      'none: never built; building: a build runs (queries keep reading the previous index, if any); ready: built; failed: the newest build failed (the previous index, if any, still answers).',
    ),
    reportId: Id.nullable().describe('The report whose pages the index that answers queries holds; null before the first build completes.'),
    pages: z.number().int().min(0).describe('Pages in the index that answers queries.'),
    builtAt: Timestamp.nullable().describe('When the index that answers queries was completed.'),
    building: z
      .object({
        buildId: Id,
        reportId: Id,
        startedAt: Timestamp,
        pagesIndexed: z.number().int().min(0),
      })
      .nullable()
      .describe('The build under way; it replaces the index at once when complete.'),
    error: z.string().nullable().describe('Why the newest build failed (state failed only).'),
  })
  .meta({ id: 'SearchIndexState' });
export type SearchIndexState = z.infer<typeof SearchIndexState>;

export const SearchHit = z
  .object({
    pageId: Id.describe("The page in the index's report: getReportPage with reportId and pageId."),
    reportId: Id,
    url: z.string(),
    title: z.string().nullable().describe('As written in the page, not escaped.'),
    snippet: z
      .string()
      .describe('About 30 words of the page around the best match, as HTML: escaped, with the matched words in <mark>…</mark>.'),
    score: z.number().describe('Relevance, higher first; comparable within one search only.'),
  })
  .meta({ id: 'SearchHit' });
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchProjectQuery = z.strictObject({ q: SearchText });
