// Per-connection state the MCP server keeps (mcp-tools.md §2.2): current room and its
// place, the places of the rooms it joined, the tokens of the worker bindings it was given,
// its legacy and implicit sessions (all keyed with their place: placeKeys.ts), its resource
// subscriptions, its logging level and its client identity.
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectionInfo } from './connection';
import { clientKeyOf, type JoinedVia } from '../domain/rooms/clientRoomSessions';
import { newLegacySessionId } from '../domain/identity/agentKeys';
import { LOCAL_PLACE } from '../store/places';
import { placeKey } from '../domain/placeKeys';

/** How the last `codex queue` into the connection's Codex thread went (codexQueue.ts; the wake path shows it). */
export type CodexQueueState = 'unknown_thread' | 'not_installed' | 'no_daemon' | 'resumed' | 'failed';

/** A reply not written within this long counts as not delivered. */
const REPLY_WAIT_MS = 30_000;

export class ConnectionState {
  currentRoom: string | null = null;
  /** The current room's place. */
  currentPlace: string = LOCAL_PLACE;
  /** How the current room was joined (room responses report it). */
  currentJoinedVia: JoinedVia = 'join_room';
  /** room_id -> the place of the room of that id this connection joined or registered in last. */
  readonly roomPlaces = new Map<string, string>();
  /** session key (place + session_id) -> token this connection was given (worker-handles.md §1). */
  readonly tokens = new Map<string, string>();
  /** worker_id -> the places where this connection connected it (their rooms are looked up even while a team is offline, to say so). */
  readonly workerPlaces = new Map<string, Set<string>>();
  /** Session keys of the legacy sessions registered by this connection, newest last. */
  readonly legacySessions: string[] = [];
  /** room key (place + room_id) -> this connection's implicit session there (its session_id). */
  readonly implicitSessions = new Map<string, string>();
  /** Resource URIs this connection subscribed to (resources.ts). */
  readonly subscriptions = new Set<string>();
  /** Room names join_room refused as near a room that exists (R14): asked again, they are created. */
  readonly confirmedNewRooms = new Set<string>();
  /** The lowest level of log notes the client wants (logging/setLevel). */
  logLevel: LoggingLevel = 'info';
  clientName = '';
  /** Codex only: the thread its newest tool call named in _meta (codexQueue.ts), and how the last queue into it went. */
  codexThread: string | null = null;
  codexQueue: CodexQueueState | null = null;
  /**
   * The id of the next implicit session this connection creates, chosen in advance so that a
   * call without an identity can report that session's real agent key (mcp-tools.md §2.4).
   */
  nextImplicitSessionId = newLegacySessionId();
  closed = false;
  /** Replies the transport has not written yet that someone waits on (whenReplied), by JSON-RPC id. */
  private readonly replies = new Map<string | number, { resolve: () => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();

  constructor(readonly info: ConnectionInfo) {}

  /**
   * Resolves once the reply to request `id` was written to the agent's process (socket
   * connections report it; over HTTP it resolves at once); rejects when the write failed or the
   * connection closed first.
   */
  whenReplied(id: string | number): Promise<void> {
    if (this.info.transport !== 'socket') return Promise.resolve();
    if (this.closed) return Promise.reject(new Error("the agent's connection closed"));
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => this.replied(id, new Error('its connection took too long to take the answer')), REPLY_WAIT_MS);
      timer.unref();
      this.replies.set(id, { resolve, reject, timer });
    });
  }

  /** The transport wrote the reply to request `id` (error: it could not). */
  replied(id: string | number, error: Error | null): void {
    const waiting = this.replies.get(id);
    if (!waiting) return;
    this.replies.delete(id);
    clearTimeout(waiting.timer);
    if (error) waiting.reject(error);
    else waiting.resolve();
  }

  /** The connection closed: no reply can be written any more. */
  markClosed(): void {
    this.closed = true;
    for (const id of [...this.replies.keys()]) this.replied(id, new Error("the agent's connection closed"));
  }

  /** True for the legacy and implicit sessions this connection created (by session key). */
  ownsLegacySession(key: string): boolean {
    if (this.legacySessions.includes(key)) return true;
    for (const [roomKey, sessionId] of this.implicitSessions) {
      if (placeKey(roomKey.slice(0, roomKey.indexOf('\n')), sessionId) === key) return true;
    }
    return false;
  }

  /** Notes that this connection is in `roomId` of `place` (joined, registered there). */
  noteRoom(place: string, roomId: string): void {
    this.roomPlaces.set(roomId, place);
  }

  get id(): string {
    return this.info.id;
  }

  /** Saved room sessions are keyed by MCP client name + working directory. */
  get clientKey(): string {
    return clientKeyOf(this.clientName || 'unknown', this.info.cwd ?? '');
  }
}
