// The room side of managed agents: which room each agent is a member of, what its room's place
// holds of it (worker, session, room), rejoining rooms that could not be read at start, leaving,
// and the app's own room messages (which start no turn).
import { workerSessionId } from '../domain/identity/agentKeys';
import { latestNumber } from '../domain/messages/read';
import { getRoom, type RoomRow } from '../domain/rooms/rooms';
import { endSession, getSession, type SessionRow } from '../domain/sessions/sessions';
import { heartbeat } from '../domain/sessions/presence';
import { getWorker, type WorkerRow } from '../domain/sessions/workers';
import { postSystemEvent } from '../domain/systemEvents';
import type { McpServices } from '../mcp/services';
import { deleteManagedAgentRow, deleteManagedMember, getManagedAgentRow, type ManagedAgentRow } from '../store/managedAgentQueries';
import { LOCAL_PLACE, storageIn } from '../store/places';
import type { Storage, Tx } from '../store/port';
import { noteMember } from './agentRoom';
import type { MemberAgent } from './triggers';
import type { TurnScheduler } from './turnScheduler';
import type { AgentWorkspaces } from './workspace/agentWorkspaces';

export interface RoomMembersOptions {
  readonly store: Storage;
  readonly services: McpServices;
  readonly scheduler: TurnScheduler;
  readonly workspaces: AgentWorkspaces;
}

/** What its room's place holds of a managed agent. */
export interface RoomSide {
  readonly storage: Storage;
  readonly worker: WorkerRow | undefined;
  readonly session: SessionRow | undefined;
  readonly room: RoomRow | null;
}

export type Member = MemberAgent & { place: string; roomId: string };

export class RoomMembers {
  /** Every managed agent with a worker, by id; `takesTurns`: running, not held, able to run. */
  readonly members = new Map<string, Member>();
  /** Agents whose room's place could not be read yet (a team offline at start): tracked once it can. */
  readonly untracked = new Map<string, ManagedAgentRow>();
  private readonly ownEvents = new Set<string>();

  constructor(private readonly options: RoomMembersOptions) {}

  /** Its room's place's storage (a team's connects on first use; offline: its reads and writes fail with team_offline). */
  roomStore(row: Pick<ManagedAgentRow, 'place'>): Promise<Storage> {
    return storageIn(this.options.services.places, row.place);
  }

  /** Its worker, session and room as its room's place holds them (throws while that place cannot be read). */
  async roomSide(row: ManagedAgentRow): Promise<RoomSide> {
    const storage = await this.roomStore(row);
    return storage.read(async (q) => ({
      storage,
      worker: await getWorker(q, row.worker_id),
      session: await getSession(q, workerSessionId(row.worker_id, row.room_id)),
      room: await getRoom(q, row.room_id),
    }));
  }

  /** The managed agents that are members of this room. */
  in(place: string, roomId: string): Member[] {
    return [...this.members.values()].filter((m) => m.place === place && m.roomId === roomId);
  }

  /** Takes back a join whose settings could not be kept on this computer. */
  async leaveRoom(place: string, agentId: string, sessionId: string): Promise<void> {
    const storage = await storageIn(this.options.services.places, place);
    await storage.write(async (tx) => {
      await deleteManagedMember(tx, agentId);
      await endSession(tx, sessionId, 'person');
    });
  }

  /** Routes the room's messages to the agent from now on: as turns, or kept while it takes none. */
  track(row: ManagedAgentRow, worker: WorkerRow | undefined): void {
    const takesTurns = row.desired_state === 'running' && row.held_reason === null && row.cant_run_json === null && row.limit_until === null;
    // Its room's place could not be read just now: what is known of it stays, with its new state.
    if (!worker) {
      const known = this.members.get(row.agent_id);
      if (known) this.members.set(row.agent_id, { ...known, takesTurns });
      return;
    }
    this.members.set(row.agent_id, { agentId: row.agent_id, place: row.place, roomId: row.room_id, sessionId: workerSessionId(worker.worker_id, row.room_id), agentKey: worker.agent_key, takesTurns });
  }

  /** No turns from the room's messages: they are kept for its next turn instead. */
  takesNoTurns(agentId: string): void {
    const member = this.members.get(agentId);
    if (member) this.members.set(agentId, { ...member, takesTurns: false });
  }

  /** Forgets the agent (removed). */
  forget(agentId: string): void {
    this.members.delete(agentId);
    this.untracked.delete(agentId);
  }

  /**
   * Tracks the agents (of `place`, or all) whose room could not be read yet: in a team room,
   * this app says again that it runs them (other machines show them run here while it
   * heartbeats there). One whose room is gone (deleted while the app was closed) goes.
   * Returns the ids of the agents it tracked now.
   */
  async trackPending(place?: string): Promise<string[]> {
    const tracked: string[] = [];
    for (const row of [...this.untracked.values()]) {
      if (place !== undefined && row.place !== place) continue;
      const known = await this.roomSide(row).catch(() => null);
      if (!known) continue;
      this.untracked.delete(row.agent_id);
      if (!known.room) {
        await this.options.store.write((tx) => deleteManagedAgentRow(tx, row.agent_id));
        continue;
      }
      if (row.place !== LOCAL_PLACE && known.worker) {
        const host = await this.options.services.host();
        const takesTurns = row.desired_state === 'running' && row.held_reason === null && row.cant_run_json === null;
        await known.storage.write(async (tx) => {
          await heartbeat(tx, host);
          await noteMember(tx, row.place, { agentId: row.agent_id, workerId: row.worker_id, roomId: row.room_id }, host, takesTurns);
        });
      }
      this.track(row, known.worker);
      tracked.push(row.agent_id);
    }
    return tracked;
  }

  /** A room message from the app about the agent, which starts no turn. */
  async notice(row: Pick<ManagedAgentRow, 'place' | 'room_id'>, text: string): Promise<void> {
    await (await this.roomStore(row)).write(async (tx) => {
      await postSystemEvent(tx, row.room_id, text, null);
      await this.markOwnEvent(tx, row.place, row.room_id);
    });
  }

  /** The message just posted in this write (a join, a stop notice) starts no managed turn. */
  async markOwnEvent(tx: Tx, place: string, roomId: string): Promise<void> {
    const key = `${place}\n${roomId}\n${await latestNumber(tx, roomId)}`;
    // Noted after the commit (before its events go out): a write that rolls back, or is run
    // again, leaves nothing behind.
    tx.afterCommit(() => this.ownEvents.add(key));
  }

  /** True (once) when the room's message `number` is one the app posted itself. */
  takeOwnEvent(place: string, roomId: string, number: number): boolean {
    return this.ownEvents.delete(`${place}\n${roomId}\n${number}`);
  }

  /** Agents whose room was deleted went with it (their settings too: they have no room to work in). */
  async forgetVanished(place: string, roomId: string): Promise<void> {
    for (const member of this.in(place, roomId)) {
      this.members.delete(member.agentId);
      await this.options.scheduler.stop(member.agentId);
      await this.options.store.write(async (tx) => {
        await deleteManagedAgentRow(tx, member.agentId);
        tx.emit({ type: 'agent.changed', agentId: member.agentId });
      });
    }
  }

  /** The branch of the room's managed agent with this key, when it works in a worktree of its own. */
  async branchOf(place: string, roomId: string, agentKey: string): Promise<string | null> {
    const member = this.in(place, roomId).find((m) => m.agentKey === agentKey);
    const row = member ? await this.options.store.read((q) => getManagedAgentRow(q, member.agentId)) : undefined;
    if (!row) return null;
    const workspace = this.options.workspaces.of(row.agent_id, row.folder);
    return workspace.kind === 'worktree' ? workspace.branch : null;
  }
}
