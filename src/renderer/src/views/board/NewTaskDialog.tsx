// "New task": a person's task starts Accepted (or Assigned, to the agent they pick), or
// Proposed when they choose to propose it.
import { useState } from 'react';
import type { AgentSession, TaskCard } from '../../../../shared/types';
import { useApi } from '../../api/ApiContext';
import { Dialog } from '../../components/Dialog';
import { Form } from '../../components/Form';
import type { RoomRef } from '../../lib/rooms';
import { agentStateLabel } from '../../../../shared/model/agentState';
import { sortAgents } from '../agents/AgentsRoster';

export function NewTaskDialog({ room, agents, onCreated, onClose }: { room: RoomRef; agents: AgentSession[]; onCreated: (task: TaskCard) => void; onClose: () => void }) {
  const api = useApi();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [propose, setPropose] = useState(false);
  const [assignTo, setAssignTo] = useState('');
  const candidates = sortAgents(agents.filter((a) => !a.ended));
  return (
    <Dialog title="New task" onClose={onClose} wide>
      <Form
        submitLabel={propose ? 'Propose task' : 'Add task'}
        check={() => (title.trim() === '' ? 'Give the task a title.' : null)}
        onSubmit={async () => {
          const assignee = !propose && assignTo ? { assignTo } : {};
          const task = await api.call('tasks.create', { ...room, title: title.trim(), description: description.trim() || undefined, propose, ...assignee });
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
        <label className="field">
          <span>Assign to <span className="field-optional">(optional)</span></span>
          <select value={propose ? '' : assignTo} onChange={(e) => setAssignTo(e.target.value)} disabled={propose || candidates.length === 0}>
            <option value="">{candidates.length === 0 ? 'No agent in this room yet' : 'Nobody yet: agents may claim it'}</option>
            {candidates.map((agent) => (
              <option key={agent.sessionId} value={agent.agentKey}>
                {agent.name} ({agentStateLabel(agent)})
              </option>
            ))}
          </select>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={propose} onChange={(e) => setPropose(e.target.checked)} />
          <span>Propose it instead (it waits in Proposed until someone accepts it; assign it then)</span>
        </label>
      </Form>
    </Dialog>
  );
}
