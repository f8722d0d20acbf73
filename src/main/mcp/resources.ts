// The room message resource (mcp-tools.md §9): letagents://rooms/{room_id}/messages,
// subscriptions, and the notifications that tell agents a room changed. No message
// content is pushed; agents read or wait to get it.
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../events/bus';
import { toAgentMessages } from '../domain/messages/agentMessages';
import { newestPage, totalMessageCount } from '../domain/messages/read';
import { getRoom, listRooms } from '../domain/rooms/rooms';
import type { ConnectionState } from './connectionState';
import type { ToolEnv } from './services';

const RESOURCE_MESSAGES = 500;
const COMPAT_PUSH_EVERY_MS = 1_000;

export const roomMessagesUri = (roomId: string) => `letagents://rooms/${encodeURIComponent(roomId)}/messages`;

function roomIdOfUri(uri: string): string | null {
  const match = /^letagents:\/\/rooms\/([^/]+)\/messages$/.exec(uri);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

export function registerMessageResource(server: McpServer, env: ToolEnv): void {
  const db = env.services.store.db;
  server.registerResource(
    'room-messages',
    new ResourceTemplate('letagents://rooms/{room_id}/messages', {
      list: () => ({
        resources: listRooms(db)
          .filter((room) => !room.archived)
          .map((room) => ({ uri: roomMessagesUri(room.roomId), name: room.displayName, mimeType: 'application/json' })),
      }),
    }),
    { description: 'The newest 500 messages of a room, as agents read them.', mimeType: 'application/json' },
    (uri) => {
      const roomId = roomIdOfUri(uri.href);
      if (!roomId || !getRoom(db, roomId)) throw new Error('Room not found.');
      const rows = newestPage(db, roomId, RESOURCE_MESSAGES);
      const total = totalMessageCount(db, roomId);
      const { messages } = toAgentMessages(db, roomId, rows, { dataDir: env.services.dataDir });
      const body = { room_id: roomId, messages, truncated: total > rows.length, total_message_count: total };
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
    },
  );
  server.server.setRequestHandler(SubscribeRequestSchema, (request) => {
    const roomId = roomIdOfUri(request.params.uri);
    if (!roomId || !getRoom(db, roomId)) throw new Error('Room not found.');
    env.conn.subscriptions.add(roomId);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    const roomId = roomIdOfUri(request.params.uri);
    if (roomId) env.conn.subscriptions.delete(roomId);
    return {};
  });
}

interface Listener {
  readonly state: ConnectionState;
  readonly server: McpServer;
}

/** Sends resource notifications to connections after commits. */
export class ResourceNotifier {
  private readonly lastCompatPush = new Map<string, number>();
  private readonly stops: Array<() => void>;

  constructor(bus: EventBus, connections: () => Listener[]) {
    this.stops = [
      bus.on('message.created', ({ roomId }) => {
        for (const { state, server } of connections()) {
          if (!server.isConnected()) continue;
          if (state.subscriptions.has(roomId)) {
            void server.server.sendResourceUpdated({ uri: roomMessagesUri(roomId) }).catch(() => undefined);
          } else if (state.subscriptions.size === 0 && state.currentRoom === roomId) {
            const now = Date.now();
            if (now - (this.lastCompatPush.get(state.id) ?? 0) < COMPAT_PUSH_EVERY_MS) continue;
            this.lastCompatPush.set(state.id, now);
            server.sendResourceListChanged();
          }
        }
      }),
      bus.on('room.changed', ({ change }) => {
        if (change === 'updated') return;
        for (const { server } of connections()) if (server.isConnected()) server.sendResourceListChanged();
      }),
    ];
  }

  close(): void {
    this.stops.forEach((stop) => stop());
  }
}
