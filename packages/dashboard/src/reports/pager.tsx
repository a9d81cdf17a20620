/** Previous / next buttons of a list read page by page (useCursorPages). */
export function Pager({
  label,
  index,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
}: {
  label: string;
  index: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  if (!hasPrevious && !hasNext) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button" onClick={onPrevious} disabled={!hasPrevious}>
        Previous
      </button>
      <span className="muted">Page {index + 1}</span>
      <button type="button" className="button" onClick={onNext} disabled={!hasNext}>
        Next
      </button>
    </nav>
  );
}
