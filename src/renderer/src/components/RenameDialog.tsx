// Asks for a new name (rooms, agents); shows the core's refusal in place.
import { useState } from 'react';
import { Dialog } from './Dialog';
import { Form } from './Form';

export function RenameDialog({ title, label, initial, maxLength, onRename, onClose }: {
  title: string;
  label: string;
  initial: string;
  maxLength: number;
  onRename: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
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
          <label className="field">
            <span>{label}</span>
            <input value={name} maxLength={maxLength} onChange={(e) => setName(e.target.value)} data-autofocus aria-invalid={error ? true : undefined} />
          </label>
        )}
      </Form>
    </Dialog>
  );
}
