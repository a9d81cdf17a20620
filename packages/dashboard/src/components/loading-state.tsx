/** A polite live region, so a screen reader hears that something is loading, and a spinner for the eye. */
export function LoadingState({ label = 'Loading', fullPage = false }: { label?: string; fullPage?: boolean }) {
  return (
    <div className={fullPage ? 'loading-state centered-page' : 'loading-state'} role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}…</span>
    </div>
  );
}
