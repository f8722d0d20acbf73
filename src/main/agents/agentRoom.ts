// A managed agent's room as the room's own database holds it (issue 35): this computer's or
// a team's. Found by id (in the place asked for, else this computer's rooms first, then each
// team's that can be read now); its managed-member row tells every machine that reads the
// room that the agent is a member between turns too, and which machine's app runs it.
import { workerSessionId } from '../domain/identity/agentKeys';
import { DomainError, errors } from '../domain/errors';
import { getRoom, nearRoomIds, type RoomRow } from '../domain/rooms/rooms';
import { deleteManagedMember, setManagedMemberApprovalWait, setManagedMemberTakesTurns, upsertManagedMember } from '../store/managedAgentQueries';
import type { ShowWait } from '../approvals/approvals';
import { LOCAL_PLACE, storageIn, type Places } from '../store/places';
import type { Storage, Tx } from '../store/port';
import { getSession, type SessionHost } from '../domain/sessions/sessions';
import { leaveTurns } from '../domain/activation/turnsLeft';
import type { RoutingServices } from '../domain/activation/roomMembers';

export interface AgentRoom {
  readonly place: string;
  readonly storage: Storage;
  readonly room: RoomRow;
}

/** The open room `roomId` in `place`, or wherever it is; a clear error naming the nearest rooms when there is none. */
export async function locateAgentRoom(places: Places, roomId: string, place?: string): Promise<AgentRoom> {
  const storages = place === undefined ? await places.reachable() : [await places.get(await places.name(place))];
  for (const storage of storages) {
    const room = await storage.read((q) => getRoom(q, roomId));
    if (!room) continue;
    if (room.archived_at !== null) throw errors.R4();
    return { place: storage.place, storage, room };
  }
  const near: string[] = [];
  for (const storage of storages) {
    for (const id of await storage.read((q) => nearRoomIds(q, roomId))) near.push(storage.place === LOCAL_PLACE ? `"${id}"` : `"${id}" (team ${storage.place})`);
  }
  const where = storages.map((s) => (s.place === LOCAL_PLACE ? 'this computer' : `team ${s.place}`)).join(', ');
  throw new DomainError(
    'not_found',
    'hard',
    near.length > 0 ? `Room "${roomId}" not found. Did you mean ${near.join(' or ')}?` : `Room "${roomId}" not found (looked in: ${where}).`,
  );
}

/** The agent's member row in its room's database: run by `host` (none for this computer's rooms), taking turns or not. */
export async function noteMember(
  tx: Tx,
  place: string,
  agent: { readonly agentId: string; readonly workerId: string; readonly roomId: string },
  host: SessionHost,
  takesTurns: boolean,
): Promise<void> {
  const local = place === LOCAL_PLACE;
  await upsertManagedMember(tx, {
    roomId: agent.roomId,
    workerId: agent.workerId,
    agentId: agent.agentId,
    hostId: local ? null : host.id,
    hostLabel: local ? null : host.label,
    takesTurns,
  });
  // The room's rosters (on every machine that reads it) show the change.
  tx.emit({ type: 'worker.changed', roomId: agent.roomId, sessionId: workerSessionId(agent.workerId, agent.roomId), change: 'updated' });
}

/**
 * Whether it takes turns now, as every machine reading the room sees it (its place may be
 * offline: tried, not required). `services` read the @all rounds it leaves.
 */
export async function noteTakesTurns(
  services: RoutingServices & { readonly places: Places }, row: { agent_id: string; worker_id: string; room_id: string; place: string }, takesTurns: boolean,
): Promise<void> {
  try {
    const storage = await storageIn(services.places, row.place);
    await storage.write(async (tx) => {
      if (await setManagedMemberTakesTurns(tx, row.agent_id, takesTurns)) {
        const sessionId = workerSessionId(row.worker_id, row.room_id);
        tx.emit({ type: 'worker.changed', roomId: row.room_id, sessionId, change: 'updated' });
        // Paused, held or unable to run: away from the @all rounds whose turn it has now or to
        // come (recorded now, for every machine), so the next agent's turn starts at once.
        const session = takesTurns ? undefined : await getSession(tx, sessionId);
        if (session) await leaveTurns(services, tx, row.place, row.room_id, session.agent_key, sessionId);
      }
    });
  } catch (error) {
    console.warn(`managed agent ${row.agent_id}: could not tell its room (${row.place}) whether it takes turns:`, error);
  }
}

/**
 * In a team room, its member row says whether it waits for `person`'s approval (to use which
 * tool, since when): the other machines' rosters show why it is silent, and that only this
 * computer decides. The command itself stays here.
 */
export function approvalWaitIn(storage: Storage, row: { agent_id: string; worker_id: string; room_id: string }, person: () => Promise<string>): ShowWait {
  return async (wait) => {
    const shown = wait ? { ...wait, person: await person() } : null;
    await storage.write(async (tx) => {
      if (await setManagedMemberApprovalWait(tx, row.agent_id, shown)) {
        tx.emit({ type: 'worker.changed', roomId: row.room_id, sessionId: workerSessionId(row.worker_id, row.room_id), change: 'updated' });
      }
    });
  };
}

/** It is no member of its room any more (removed). */
export async function forgetMember(storage: Storage, agentId: string): Promise<void> {
  await storage.write((tx) => deleteManagedMember(tx, agentId));
}
