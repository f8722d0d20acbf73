// Asks for a new name (rooms, agents); shows the core's refusal in place.
import { useState } from 'react';
import { Dialog } from './Dialog';
import { errorMessage } from '../api/client';

export function RenameDialog({ title, label, initial, maxLength, onRename, onClose }: {
  title: string;
  label: string;
  initial: string;
  maxLength: number;
  onRename: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return setError('Type a name.');
    setBusy(true);
    try {
      await onRename(name.trim());
      onClose();
    } catch (thrown) {
      setError(errorMessage(thrown));
      setBusy(false);
    }
  };
  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit} className="form">
        <label className="field">
          <span>{label}</span>
          <input value={name} maxLength={maxLength} onChange={(e) => setName(e.target.value)} data-autofocus aria-invalid={error ? true : undefined} />
        </label>
        {error && <p className="form-error" role="alert">{error}</p>}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Rename
          </button>
        </div>
      </form>
    </Dialog>
  );
}
