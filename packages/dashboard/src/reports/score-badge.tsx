import type { Report } from '@loupe/contract';

type Grade = Report['health']['grade'];

/**
 * A score with its grade, coloured as the report colours it (green ≥ 90, amber ≥ 70, red
 * below: audit-checks.md). The colour is never the only sign: the number and grade are written.
 */
export function ScoreBadge({ score, grade, large = false }: { score: number | null; grade: Grade; large?: boolean }) {
  if (score === null) {
    return <span className={`score-badge unscored${large ? ' large' : ''}`}>No score</span>;
  }
  const colour = score >= 90 ? 'green' : score >= 70 ? 'amber' : 'red';
  return (
    <span className={`score-badge ${colour}${large ? ' large' : ''}`}>
      <span className="visually-hidden">Health </span>
      <span className="score-number">{score}</span>
      {grade && (
        <>
          <span className="visually-hidden">, grade </span>
          <span className="score-grade">{grade}</span>
        </>
      )}
    </span>
  );
}
