// What the UI and CLI show about a managed agent: its settings, its worker and session in its
// room, its turn state, budget, last turn, workspace and rate limit's retry.
import type { AgentWorkspace } from '../../shared/model/managedAgents';
import type { SessionRow } from '../domain/sessions/sessions';
import type { WorkerRow } from '../domain/sessions/workers';
import { listTurnRows, type ManagedAgentRow, type TurnRow } from '../store/managedAgentQueries';
import type { Storage } from '../store/port';
import { budgetUse, type BudgetUse } from './budgets';
import type { RoomMembers } from './roomMembers';
import type { TurnScheduler } from './turnScheduler';
import type { UsageLimits } from './usageLimits';
import type { AgentWorkspaces } from './workspace/agentWorkspaces';

/** A managed agent with what the UI and CLI show about it. */
export interface ManagedAgentRecord {
  readonly row: ManagedAgentRow;
  readonly worker: WorkerRow | undefined;
  readonly session: SessionRow | undefined;
  readonly roomName: string;
  readonly turnState: 'idle' | 'queued' | 'running';
  readonly budget: BudgetUse;
  readonly lastTurn: TurnRow | undefined;
  readonly workspace: AgentWorkspace;
  /** Rate limited: when it tries again (ISO); null otherwise. */
  readonly retryAt: string | null;
}

export interface RecordSources {
  readonly store: Storage;
  readonly room: RoomMembers;
  readonly scheduler: TurnScheduler;
  readonly workspaces: AgentWorkspaces;
  readonly limits: UsageLimits;
}

export async function recordOf(sources: RecordSources, row: ManagedAgentRow): Promise<ManagedAgentRecord> {
  const { store } = sources;
  // While its team cannot be read, it is shown from this computer's record (its name, its room's id).
  const { worker, session, room } = (await sources.room.roomSide(row).catch(() => null)) ?? { worker: undefined, session: undefined, room: null };
  const budget = await store.read((q) => budgetUse(q, row, new Date()));
  const lastTurn = await store.read(async (q) => (await listTurnRows(q, row.agent_id, 1))[0]);
  const workspace = sources.workspaces.of(row.agent_id, row.folder);
  return {
    row, worker, session, roomName: room?.display_name ?? row.room_id, turnState: sources.scheduler.state(row.agent_id), budget, lastTurn, workspace,
    retryAt: sources.limits.retryAt(row.agent_id),
  };
}

/** Its name in its room now. */
export function nameOf(record: ManagedAgentRecord): string {
  return record.session?.display_name ?? record.worker?.display_name ?? 'The agent';
}
