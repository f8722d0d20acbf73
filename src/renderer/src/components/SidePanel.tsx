// A panel beside the main view (a task, a thread): header with a close button, a scrolling
// body, and Escape anywhere inside closes it.
import type { ReactNode } from 'react';
import { Icon } from './Icon';

export interface SidePanelProps {
  /** Names the panel's kind for styling: "task-drawer", "thread-panel". */
  kind: string;
  label: string;
  closeLabel: string;
  /** What the header shows before the close button. */
  header: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** What follows the body inside the panel (a composer, a dialog the panel opened). */
  after?: ReactNode;
}

export function SidePanel({ kind, label, closeLabel, header, onClose, children, after }: SidePanelProps) {
  return (
    <aside className={`side-panel ${kind}`} aria-label={label} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
      <header className="side-panel-header">
        {header}
        <button type="button" className="btn btn-icon" onClick={onClose} aria-label={closeLabel}>
          <Icon name="x" />
        </button>
      </header>
      <div className="side-panel-body">{children}</div>
      {after}
    </aside>
  );
}
