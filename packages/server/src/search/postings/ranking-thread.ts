import type { PositionalList } from './positional-list.ts';
import { bestMatches, type GenerationStats, type PositionalQuery, type RankedMatch } from './positional-ranking.ts';

/** A query to rank on a ranking thread, its lists and the generation's stats in shared memory. */
export interface RankingTask {
  query: PositionalQuery;
  lists: Map<string, PositionalList>;
  stats: GenerationStats;
  count: number;
}

/** What a ranking thread runs (ranking-threads.ts). */
export default function rank({ query, lists, stats, count }: RankingTask): RankedMatch[] {
  return bestMatches(query, lists, stats, count);
}
