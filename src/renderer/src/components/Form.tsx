// A form that saves: its fields, the refusal line, Cancel and the submit button; Enter submits.
import { useState, type ReactNode } from 'react';
import { errorMessage } from '../api/client';

export interface FormProps {
  submitLabel: string;
  /** The problem with the input, in the words shown to the person, or null when it can be sent. */
  check?: () => string | null;
  /** Saves; a rejection is shown in place and the form can be sent again. On success the caller closes it. */
  onSubmit: () => Promise<unknown>;
  onCancel: () => void;
  className?: string;
  /** The fields; a function gets the shown problem so a field can mark itself invalid. */
  children: ReactNode | ((error: string | null) => ReactNode);
}

export function Form({ submitLabel, check, onSubmit, onCancel, className = 'form', children }: FormProps) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = check?.() ?? null;
    if (problem) return setError(problem);
    setBusy(true);
    try {
      await onSubmit();
    } catch (thrown) {
      setError(errorMessage(thrown));
      setBusy(false);
    }
  };
  return (
    <form className={className} onSubmit={submit}>
      {typeof children === 'function' ? children(error) : children}
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="form-actions">
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        {/* aria-disabled, not disabled: a disabled button drops the focus to the page, and with it
            Escape and the place to try again once a refusal shows (issue 27). */}
        <button type="submit" className="btn btn-primary" aria-disabled={busy || undefined}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
