/** A dialog form's last row: Cancel, and the submit, which says `busyLabel` and waits while the request runs. */
export function DialogFormActions({
  busy,
  submitLabel,
  busyLabel,
  onCancel,
  cancelDisabled = false,
}: {
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  onCancel: () => void;
  cancelDisabled?: boolean;
}) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onCancel} disabled={cancelDisabled}>
        Cancel
      </button>
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </button>
    </div>
  );
}
