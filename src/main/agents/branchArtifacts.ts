// When a managed agent that works in a worktree of its own takes a task (a claim, or a
// handoff to it), its branch becomes one of the task's artifacts, so the board says where the
// work is. Once per lease: an agent that later rewrites the task's list has the last word.
import { addTaskArtifact } from '../domain/tasks/appArtifacts';
import { activeWorkLease } from '../domain/tasks/leases';
import type { EventBus } from '../events/bus';
import { storageIn, type Places } from '../store/places';
import { getTaskRow } from '../store/taskQueries';

/** The branch of the room's managed agent with this key; null when it has none (not managed, or in the folder itself). */
export type BranchOf = (place: string, roomId: string, agentKey: string) => Promise<string | null>;

/** `runsAgentsIn`: whether this app runs a managed agent in the room (no read for the others' rooms). */
export function watchClaims(bus: EventBus, places: Places, runsAgentsIn: (place: string, roomId: string) => boolean, branchOf: BranchOf): () => void {
  const seenLeases = new Set<string>();
  const onTask = async (place: string, roomId: string, number: number) => {
    if (!runsAgentsIn(place, roomId)) return;
    const store = await storageIn(places, place);
    const task = await store.read((q) => getTaskRow(q, roomId, number));
    const lease = task ? await store.read((q) => activeWorkLease(q, task)) : undefined;
    if (!lease || seenLeases.has(lease.lease_id)) return;
    seenLeases.add(lease.lease_id);
    const branch = lease.agent_key ? await branchOf(place, roomId, lease.agent_key) : null;
    if (branch) await store.write((tx) => addTaskArtifact(tx, roomId, number, { provider: 'unknown', kind: 'branch', ref: branch }));
  };
  // Its room may be this computer's or a team's: the branch is the one of the agent this app runs.
  return bus.on('task.changed', (e) => {
    void onTask(e.place, e.roomId, e.number).catch((error: unknown) => console.error('managed agents: could not add the branch to the task:', error));
  });
}
