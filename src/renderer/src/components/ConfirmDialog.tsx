// Asks before anything that ends work: says what will happen, in plain words.
import type { ReactNode } from 'react';
import { ActionDialog } from './ActionDialog';

export function ConfirmDialog({ title, children, confirmLabel, danger = false, onConfirm, onClose }: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<void> | void;
  onClose: () => void;
}) {
  return (
    <ActionDialog title={title} actionLabel={confirmLabel} dismissLabel="Keep it" danger={danger} focusAction onAction={onConfirm} onClose={onClose}>
      <div className="confirm-text">{children}</div>
    </ActionDialog>
  );
}
