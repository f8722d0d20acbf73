// One read of a room's new messages for every wait woken by the same commit (issue 38): fifty
// agents waiting in a room all wake on one message, and each read the same newest number, the
// same page after the same cursor and the same agent-readable messages. Messages never change
// once written, so what one wait read is handed to the others until the room's next message
// (or a team's reconnect): then the room's reads are dropped and the next wait reads afresh. A
// wait listens for commits before it reads, so a read that a message overtook only makes it
// look again, exactly as when it reads alone.
import type { EventBus } from '../events/bus';
import { placeKey } from '../domain/placeKeys';
import { latestNumber, newestPage, pageAfter, type MessageRow } from '../domain/messages/read';
import { toAgentMessages, type AgentMessages } from '../domain/messages/agentMessages';
import type { Storage } from '../store/port';

/** The newest number, and the window after the cursor (the newest window without one); null when there is nothing after it. */
export interface RoomPage {
  readonly latest: number;
  readonly rows: readonly MessageRow[] | null;
}

/** A room and the storage of its place (identity.ts' RoomRef). */
type Room = { readonly place: string; readonly roomId: string; readonly storage: Storage };

/** Rooms with reads kept at most, and reads kept per room (more are read, not kept). */
const MAX_ROOMS = 1_000;
const MAX_READS_PER_ROOM = 64;

interface RoomEntry {
  readonly pages: Map<string, Promise<RoomPage>>;
  readonly messages: Map<string, Promise<AgentMessages>>;
}

export class RoomReads {
  private readonly rooms = new Map<string, RoomEntry>();
  private readonly stops: Array<() => void>;

  constructor(bus: EventBus) {
    this.stops = [
      bus.on('message.created', (event) => this.rooms.delete(placeKey(event.place, event.roomId))),
      bus.on('place.reconnected', (event) => {
        for (const key of [...this.rooms.keys()]) if (key.startsWith(placeKey(event.place, ''))) this.rooms.delete(key);
      }),
    ];
  }

  /** The room's newest number and the window of `window` messages after `cursor` (the newest window for null). */
  page(room: Room, cursor: number | null, window: number): Promise<RoomPage> {
    return this.shared(room, 'pages', `${cursor ?? 'newest'}/${window}`, () =>
      room.storage.read(async (q) => {
        const latest = await latestNumber(q, room.roomId);
        // An empty room with no cursor has nothing; a cursor past the newest is clamped to it.
        if (cursor === null) return { latest, rows: latest > 0 ? await newestPage(q, room.roomId, window) : null };
        const after = Math.min(cursor, latest);
        return { latest, rows: after < latest ? await pageAfter(q, room.roomId, after, window) : null };
      }),
    );
  }

  /** The agent-readable form of `rows` of the room (shared: never change what it returns). */
  agentMessages(room: Room, rows: readonly MessageRow[]): Promise<AgentMessages> {
    return this.shared(room, 'messages', rows.map((r) => r.number).join(','), () => room.storage.read((q) => toAgentMessages(q, room.roomId, rows)));
  }

  close(): void {
    this.stops.forEach((stop) => stop());
    this.rooms.clear();
  }

  private shared<K extends keyof RoomEntry, T>(room: Room, kind: K, key: string, read: () => Promise<T>): Promise<T> {
    const roomKey = placeKey(room.place, room.roomId);
    let entry = this.rooms.get(roomKey);
    if (!entry) {
      if (this.rooms.size >= MAX_ROOMS) this.rooms.clear();
      entry = { pages: new Map(), messages: new Map() };
      this.rooms.set(roomKey, entry);
    }
    const reads = entry[kind] as unknown as Map<string, Promise<T>>;
    const kept = reads.get(key);
    if (kept) return kept;
    const reading = read();
    if (reads.size < MAX_READS_PER_ROOM) {
      reads.set(key, reading);
      // A failed read is not kept: the next wait tries again.
      reading.catch(() => {
        if (reads.get(key) === reading) reads.delete(key);
      });
    }
    return reading;
  }
}
