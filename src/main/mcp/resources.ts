// Resources (mcp-tools.md §9): letagents://rooms/{room_id}/messages (the newest 500
// messages) and letagents://rooms/{room_id}/tasks/{task_id} (one task) of this computer's
// rooms, the same under letagents://teams/{team}/rooms/… for a team's rooms, subscriptions,
// and the notifications that tell agents something changed (also what the team's other
// apps committed). No message content is pushed; agents read or wait to get it. A URI
// that names nothing is JSON-RPC -32002 with the URI in `data`.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ReadResourceRequestSchema, SubscribeRequestSchema,
  UnsubscribeRequestSchema, type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../events/bus';
import { toAgentMessages } from '../domain/messages/agentMessages';
import { newestPage, totalMessageCount } from '../domain/messages/read';
import { getRoom, listRooms } from '../domain/rooms/rooms';
import { getTaskRow } from '../store/taskQueries';
import { toTaskObject } from '../domain/tasks/taskObject';
import { parseNumberedId } from '../domain/ids';
import type { ConnectionState } from './connectionState';
import { INVALID_PARAMS, rpcError } from './results';
import { LOCAL_PLACE } from '../store/places';
import type { Queryable } from '../store/port';
import type { ToolEnv } from './services';

const RESOURCE_MESSAGES = 500;
const COMPAT_PUSH_EVERY_MS = 1_000;
/** A connection tracks at most this many subscriptions. */
const MAX_SUBSCRIPTIONS = 1_000;
/** JSON-RPC "resource not found" (MCP). */
export const RESOURCE_NOT_FOUND = -32002;
const JSON_MIME = 'application/json';

export const MESSAGES_TEMPLATE = 'letagents://rooms/{room_id}/messages';
export const TASK_TEMPLATE = 'letagents://rooms/{room_id}/tasks/{task_id}';
export const TEAM_MESSAGES_TEMPLATE = 'letagents://teams/{team}/rooms/{room_id}/messages';
export const TEAM_TASK_TEMPLATE = 'letagents://teams/{team}/rooms/{room_id}/tasks/{task_id}';
export const ROOM_TEMPLATES: readonly string[] = [MESSAGES_TEMPLATE, TASK_TEMPLATE, TEAM_MESSAGES_TEMPLATE, TEAM_TASK_TEMPLATE];

const roomBase = (place: string, roomId: string) =>
  `letagents://${place === LOCAL_PLACE ? '' : `teams/${encodeURIComponent(place)}/`}rooms/${encodeURIComponent(roomId)}`;
export const roomMessagesUri = (place: string, roomId: string) => `${roomBase(place, roomId)}/messages`;
export const taskUri = (place: string, roomId: string, number: number) => `${roomBase(place, roomId)}/tasks/task_${number}`;

type Target = { kind: 'messages'; place: string; roomId: string } | { kind: 'task'; place: string; roomId: string; taskId: string };

/** What a URI of ours names (the team and the room id are one percent-encoded component each), or null. */
export function parseResourceUri(uri: string): Target | null {
  const match = /^letagents:\/\/(?:teams\/([^/]+)\/)?rooms\/([^/]+)\/(?:messages|tasks\/([^/]+))$/.exec(uri);
  if (!match) return null;
  try {
    const place = match[1] === undefined ? LOCAL_PLACE : decodeURIComponent(match[1]);
    const roomId = decodeURIComponent(match[2]);
    return match[3] === undefined ? { kind: 'messages', place, roomId } : { kind: 'task', place, roomId, taskId: decodeURIComponent(match[3]) };
  } catch {
    return null;
  }
}

const notFound = (uri: string, message = 'Resource not found.') => rpcError(RESOURCE_NOT_FOUND, message, { uri });

export function registerResources(server: McpServer, env: ToolEnv): void {
  const low = server.server;
  low.setRequestHandler(ListResourcesRequestSchema, async () => {
    const resources = [];
    for (const storage of await env.services.places.reachable()) {
      const team = storage.place === LOCAL_PLACE ? '' : ` (team ${storage.place})`;
      for (const room of await storage.read((q) => listRooms(q))) {
        if (!room.archived) resources.push({ uri: roomMessagesUri(storage.place, room.roomId), name: `${room.displayName}${team}`, mimeType: JSON_MIME });
      }
    }
    return { resources };
  });
  low.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      { uriTemplate: MESSAGES_TEMPLATE, name: 'room-messages', description: 'The newest 500 messages of a room, as agents read them.', mimeType: JSON_MIME },
      { uriTemplate: TASK_TEMPLATE, name: 'room-task', description: 'One task of a room, as the task tools return it.', mimeType: JSON_MIME },
      { uriTemplate: TEAM_MESSAGES_TEMPLATE, name: 'team-room-messages', description: 'The same for a room of a team.', mimeType: JSON_MIME },
      { uriTemplate: TEAM_TASK_TEMPLATE, name: 'team-room-task', description: 'The same for a task of a team\'s room.', mimeType: JSON_MIME },
    ],
  }));
  low.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(env, request.params.uri));
  // A subscription names a URI; it may name a room or task that does not exist yet (it is
  // notified once it does), and a URI that is not ours simply never changes.
  low.setRequestHandler(SubscribeRequestSchema, (request) => {
    const subscriptions = env.conn.subscriptions;
    if (!subscriptions.has(request.params.uri) && subscriptions.size >= MAX_SUBSCRIPTIONS) {
      throw rpcError(INVALID_PARAMS, `At most ${MAX_SUBSCRIPTIONS} subscriptions per connection.`);
    }
    subscriptions.add(request.params.uri);
    return {};
  });
  low.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    env.conn.subscriptions.delete(request.params.uri);
    return {};
  });
}

async function readResource(env: ToolEnv, uri: string): Promise<ReadResourceResult> {
  const target = parseResourceUri(uri);
  if (!target) throw notFound(uri);
  let storage;
  try {
    storage = await env.services.places.get(target.place);
  } catch {
    throw notFound(uri, 'Team not found.');
  }
  return storage.read((q) => readTarget(env, q, uri, target));
}

async function readTarget(env: ToolEnv, q: Queryable, uri: string, target: Target): Promise<ReadResourceResult> {
  if (!(await getRoom(q, target.roomId))) throw notFound(uri, 'Room not found.');
  let body: unknown;
  if (target.kind === 'messages') {
    const rows = await newestPage(q, target.roomId, RESOURCE_MESSAGES);
    const total = await totalMessageCount(q, target.roomId);
    const { messages } = await toAgentMessages(q, target.roomId, rows);
    body = { room_id: target.roomId, messages, truncated: total > rows.length, total_message_count: total };
  } else {
    const number = parseNumberedId('task', target.taskId);
    const row = number === null ? undefined : await getTaskRow(q, target.roomId, number);
    if (!row) throw notFound(uri, 'Task not found.');
    body = await toTaskObject(q, row);
  }
  return { contents: [{ uri, mimeType: JSON_MIME, text: JSON.stringify(body, null, 2) }] };
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
    const updated = (uri: string) => {
      for (const { state, server } of connections()) {
        if (server.isConnected() && state.subscriptions.has(uri)) void server.server.sendResourceUpdated({ uri }).catch(() => undefined);
      }
    };
    // The agent may have just gone (EPIPE): a notification nobody hears is no error.
    const listChanged = (server: McpServer) => void server.server.sendResourceListChanged().catch(() => undefined);
    this.stops = [
      bus.on('message.created', ({ place, roomId }) => {
        updated(roomMessagesUri(place, roomId));
        for (const { state, server } of connections()) {
          if (!server.isConnected() || state.subscriptions.size > 0 || state.currentRoom !== roomId || state.currentPlace !== place) continue;
          const now = Date.now();
          if (now - (this.lastCompatPush.get(state.id) ?? 0) < COMPAT_PUSH_EVERY_MS) continue;
          this.lastCompatPush.set(state.id, now);
          listChanged(server);
        }
      }),
      bus.on('task.changed', ({ place, roomId, number }) => updated(taskUri(place, roomId, number))),
      bus.on('room.changed', ({ change }) => {
        if (change === 'updated') return;
        for (const { server } of connections()) if (server.isConnected()) listChanged(server);
      }),
    ];
  }

  close(): void {
    this.stops.forEach((stop) => stop());
  }
}
