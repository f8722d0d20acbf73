// Asks before anything that ends work: says what will happen, in plain words.
import { useState, type ReactNode } from 'react';
import { Dialog } from './Dialog';

export function ConfirmDialog({ title, children, confirmLabel, danger = false, onConfirm, onClose }: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<void> | void;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (thrown) {
      setError(thrown instanceof Error ? thrown.message : 'Something went wrong.');
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Keep it
          </button>
          <button type="button" className={danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={confirm} disabled={busy} data-autofocus>
            {confirmLabel}
          </button>
        </>
      }
    >
      <div className="confirm-text">{children}</div>
      {error && <p className="form-error" role="alert">{error}</p>}
    </Dialog>
  );
}
