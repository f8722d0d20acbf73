// A task held by a managed agent that works on a branch of its own: "Changes" in the task
// drawer opens that agent's Changes view (the same one as on its card in Agents).
import { useState } from 'react';
import type { Person } from '../../../../shared/types';
import { useQuery } from '../../api/useQuery';
import type { RoomRef } from '../../lib/rooms';
import { ChangesView } from '../agents/managed/ChangesView';

export function HolderChanges({ room, holder, taskNumber }: { room: RoomRef; holder: Person; taskNumber: number }) {
  const [open, setOpen] = useState(false);
  // Managed agents run in this computer's rooms only.
  const local = room.place === 'local' && holder.agentKey !== null;
  const agents = useQuery('agents.list', local ? {} : null, (e) => e.type === 'agent.changed');
  const agent = agents.data?.find((a) => a.roomId === room.roomId && a.agentKey === holder.agentKey && a.workspace.kind === 'worktree');
  if (!agent) return null;
  const id = `task-${taskNumber}-changes`;
  return (
    <>
      <div className="drawer-row">
        <span className="muted">
          Works on <code>{agent.workspace.branch}</code>
        </span>
        <span className="spacer" />
        <button type="button" className="btn btn-small" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
          {open ? 'Hide changes' : 'Changes'}
        </button>
      </div>
      {open && <ChangesView id={id} agent={agent} />}
    </>
  );
}
