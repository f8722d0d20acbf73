// A panel beside the main view (a task, a thread): header with a close button, a scrolling
// body, and Escape anywhere inside closes it. Focus moves into it on open and goes back to
// what opened it on close.
import { useEffect, useRef, type ReactNode } from 'react';
import { useFocusReturn } from './focus';
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
  /** Where focus goes on close when the control that opened the panel is gone. */
  returnFocusTo?: () => HTMLElement | null | undefined;
}

export function SidePanel({ kind, label, closeLabel, header, onClose, children, after, returnFocusTo }: SidePanelProps) {
  const panel = useRef<HTMLElement>(null);
  useFocusReturn(returnFocusTo);
  useEffect(() => {
    // An autofocused field inside (the thread's composer) already has it.
    if (!panel.current?.contains(document.activeElement)) panel.current?.focus({ preventScroll: true });
  }, []);
  return (
    <aside ref={panel} tabIndex={-1} className={`side-panel ${kind}`} aria-label={label} onKeyDown={(event) => event.key === 'Escape' && onClose()}>
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
