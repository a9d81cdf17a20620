/**
 * A settings form's submit, and `savedLabel` in a polite live region once the change is in
 * (`saved`), so a screen reader hears it; a new submit clears it while it runs.
 */
export function SaveActions({
  busy,
  saved,
  label,
  savedLabel = 'Saved',
}: {
  busy: boolean;
  saved: boolean;
  label: string;
  savedLabel?: string;
}) {
  return (
    <div className="form-actions">
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? 'Saving…' : label}
      </button>
      <span role="status" className="muted">
        {saved && !busy ? savedLabel : ''}
      </span>
    </div>
  );
}
