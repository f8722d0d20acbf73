// A dialog that ends in one action: a dismiss button, the action button, and the action's
// refusal shown in place. Confirmations and choices (assign a task) both use it.
import { useState, type ReactNode } from 'react';
import { Dialog } from './Dialog';

export interface ActionDialogProps {
  title: string;
  actionLabel: string;
  dismissLabel: string;
  danger?: boolean;
  /** False keeps the action button disabled, e.g. until something is chosen. */
  ready?: boolean;
  /** Focus the action button on open (a confirmation); otherwise the first control gets focus. */
  focusAction?: boolean;
  /** Runs the action; the dialog closes when it resolves and shows the refusal when it rejects. */
  onAction: () => Promise<unknown> | void;
  onClose: () => void;
  children: ReactNode;
}

export function ActionDialog({ title, actionLabel, dismissLabel, danger = false, ready = true, focusAction = false, onAction, onClose, children }: ActionDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = async () => {
    setBusy(true);
    setError(null);
    try {
      await onAction();
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
            {dismissLabel}
          </button>
          <button type="button" className={danger ? 'btn btn-danger' : 'btn btn-primary'} onClick={act} disabled={!ready || busy} data-autofocus={focusAction || undefined}>
            {actionLabel}
          </button>
        </>
      }
    >
      {children}
      {error && <p className="form-error" role="alert">{error}</p>}
    </Dialog>
  );
}
