// Asks for a new name (rooms, agents), at most 64 characters (the field takes no more and
// counts down near the end); shows the core's refusal in place.
import { useId, useState } from 'react';
import { Dialog } from './Dialog';
import { Form } from './Form';

/** The longest name a person gives a room or an agent. */
export const MAX_NAME_CHARS = 64;

export function RenameDialog({ title, label, initial, maxLength, onRename, onClose }: {
  title: string;
  label: string;
  initial: string;
  maxLength: number;
  onRename: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
  const hint = useId();
  const left = maxLength - name.length;
  return (
    <Dialog title={title} onClose={onClose}>
      <Form
        submitLabel="Rename"
        check={() => (name.trim() === '' ? 'Type a name.' : null)}
        onSubmit={async () => {
          await onRename(name.trim());
          onClose();
        }}
        onCancel={onClose}
      >
        {(error) => (
          <div className="field">
            <label className="field">
              <span>{label}</span>
              <input value={name} maxLength={maxLength} onChange={(e) => setName(e.target.value)} data-autofocus aria-invalid={error ? true : undefined} aria-describedby={hint} />
            </label>
            <span id={hint} className="field-hint">
              {left <= 10 ? `${left} ${left === 1 ? 'character' : 'characters'} left` : `Up to ${maxLength} characters`}
            </span>
          </div>
        )}
      </Form>
    </Dialog>
  );
}
