// When a managed agent that works in a worktree of its own takes a task (a claim, or a
// handoff to it), its branch becomes one of the task's artifacts, so the board says where the
// work is. Once per lease: an agent that later rewrites the task's list has the last word.
import { addTaskArtifact } from '../domain/tasks/appArtifacts';
import { activeWorkLease } from '../domain/tasks/leases';
import type { EventBus } from '../events/bus';
import type { Storage } from '../store/port';
import { getTaskRow } from '../store/taskQueries';

/** The branch of the room's managed agent with this key; null when it has none (not managed, or in the folder itself). */
export type BranchOf = (roomId: string, agentKey: string) => Promise<string | null>;

export function watchClaims(bus: EventBus, store: Storage, branchOf: BranchOf): () => void {
  const seenLeases = new Set<string>();
  const onTask = async (roomId: string, number: number) => {
    const task = await store.read((q) => getTaskRow(q, roomId, number));
    const lease = task ? await store.read((q) => activeWorkLease(q, task)) : undefined;
    if (!lease || seenLeases.has(lease.lease_id)) return;
    seenLeases.add(lease.lease_id);
    const branch = lease.agent_key ? await branchOf(roomId, lease.agent_key) : null;
    if (branch) await store.write((tx) => addTaskArtifact(tx, roomId, number, { provider: 'unknown', kind: 'branch', ref: branch }));
  };
  // Managed agents run in this computer's rooms only.
  return bus.on('task.changed', (e) => {
    if (e.place === store.place) void onTask(e.roomId, e.number).catch((error: unknown) => console.error('managed agents: could not add the branch to the task:', error));
  });
}
