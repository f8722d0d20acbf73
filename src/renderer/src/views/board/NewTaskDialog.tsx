// "New task": a person's task starts Accepted, or Proposed when they choose to propose it.
import { useState } from 'react';
import type { TaskCard } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { Dialog } from '../../components/Dialog';
import { Form } from '../../components/Form';
import type { RoomRef } from '../../lib/rooms';

export function NewTaskDialog({ room, onCreated, onClose }: { room: RoomRef; onCreated: (task: TaskCard) => void; onClose: () => void }) {
  const api = useApi();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [propose, setPropose] = useState(false);
  return (
    <Dialog title="New task" onClose={onClose} wide>
      <Form
        submitLabel={propose ? 'Propose task' : 'Add task'}
        check={() => (title.trim() === '' ? 'Give the task a title.' : null)}
        onSubmit={async () => {
          const task = await api.call('tasks.create', { ...room, title: title.trim(), description: description.trim() || undefined, propose });
          onCreated(task);
          onClose();
        }}
        onCancel={onClose}
      >
        <label className="field">
          <span>Title</span>
          <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={500} data-autofocus placeholder="What needs doing?" />
        </label>
        <label className="field">
          <span>Description <span className="field-optional">(optional, Markdown)</span></span>
          <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={6} maxLength={20000} />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={propose} onChange={(e) => setPropose(e.target.checked)} />
          <span>Propose it instead (it waits in Proposed until someone accepts it)</span>
        </label>
      </Form>
    </Dialog>
  );
}
