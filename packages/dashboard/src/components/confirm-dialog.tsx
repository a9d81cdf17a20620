import { type ReactNode, useState } from 'react';
import { Dialog } from './dialog.tsx';
import { ErrorMessage } from './error-message.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** A red button, for what cannot be undone. */
  destructive?: boolean;
  /** The change itself; the dialog stays open with the API's error if it fails. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** "Are you sure?" before a change, with the change's failure shown in place. */
export function ConfirmDialog({ open, title, children, confirmLabel, destructive = false, onConfirm, onClose }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} title={title} onClose={close}>
      <div className="dialog-body">{children}</div>
      {error !== null && <ErrorMessage error={error} />}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={close} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          className={destructive ? 'button danger' : 'button primary'}
          onClick={() => void confirm()}
          disabled={busy}
          // biome-ignore lint/a11y/noAutofocus: a dialog opened to confirm one act focuses its confirm button
          autoFocus
        >
          {busy ? 'Working…' : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
