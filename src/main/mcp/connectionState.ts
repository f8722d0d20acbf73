// Per-connection state the MCP server keeps (mcp-tools.md §2.2): current room, the
// tokens of the worker bindings it was given, its legacy and implicit sessions, its
// resource subscriptions, its logging level and its client identity.
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectionInfo } from './connection';
import { clientKeyOf, type JoinedVia } from '../domain/rooms/clientRoomSessions';
import { newLegacySessionId } from '../domain/identity/agentKeys';

export class ConnectionState {
  currentRoom: string | null = null;
  /** How the current room was joined (room responses report it). */
  currentJoinedVia: JoinedVia = 'join_room';
  /** session_id -> token this connection was given (worker-handles.md §1). */
  readonly tokens = new Map<string, string>();
  /** Legacy sessions registered by this connection, newest last. */
  readonly legacySessions: string[] = [];
  /** room_id -> this connection's implicit session there. */
  readonly implicitSessions = new Map<string, string>();
  /** Resource URIs this connection subscribed to (resources.ts). */
  readonly subscriptions = new Set<string>();
  /** The lowest level of log notes the client wants (logging/setLevel). */
  logLevel: LoggingLevel = 'info';
  clientName = '';
  /**
   * The id of the next implicit session this connection creates, chosen in advance so that a
   * call without an identity can report that session's real agent key (mcp-tools.md §2.4).
   */
  nextImplicitSessionId = newLegacySessionId();
  closed = false;

  constructor(readonly info: ConnectionInfo) {}

  /** True for the legacy and implicit sessions this connection created. */
  ownsLegacySession(sessionId: string): boolean {
    return this.legacySessions.includes(sessionId) || [...this.implicitSessions.values()].includes(sessionId);
  }

  get id(): string {
    return this.info.id;
  }

  /** Saved room sessions are keyed by MCP client name + working directory. */
  get clientKey(): string {
    return clientKeyOf(this.clientName || 'unknown', this.info.cwd ?? '');
  }
}
