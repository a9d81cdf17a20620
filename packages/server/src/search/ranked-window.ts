import type { RankedHit, RankedWindow } from './search-engine.ts';

/**
 * The window an engine's statement read. Its first row names the build that answered, so an
 * answer without hits still tells which generation found nothing (no row: the project has no
 * ready build); the hits follow in ranking order, one more than the window when more follow.
 */
export function rankedWindow<Row extends { build_id: string | null; report_id: string | null }>(
  rows: readonly Row[],
  limit: number,
  toHit: (row: Row) => RankedHit,
): RankedWindow | undefined {
  const [build, ...ranked] = rows;
  if (!build?.build_id || !build.report_id) return undefined;
  return { buildId: build.build_id, reportId: build.report_id, hits: ranked.slice(0, limit).map(toHit), more: ranked.length > limit };
}
