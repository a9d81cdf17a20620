import { z } from 'zod';

/** Query parameters of every list endpoint (DESIGN.md §4); the next page is in the `Link` header. */
export const PageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('Items per page, 1–100.'),
  cursor: z.string().min(1).max(200).optional().describe('From the `rel="next"` link of the previous page.'),
});
export type PageQuery = z.output<typeof PageQuery>;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
