// completion/complete: suggestions for the variables of the resource templates (teams,
// room ids of the team given in context or of this computer, task ids of the room given in
// context) and for the prompts' room argument (rooms of every place this app can read). A
// reference this server does not know has no suggestions (an empty list, not an error).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CompleteRequestSchema, type CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { listRooms } from '../domain/rooms/rooms';
import { getBoard } from '../domain/tasks/board';
import { LOCAL_PLACE } from '../store/places';
import type { Storage } from '../store/port';
import { ROOM_TEMPLATES, TASK_TEMPLATE, TEAM_TASK_TEMPLATE } from './resources';
import { PROMPTS } from './prompts';
import type { ToolEnv } from './services';

/** The MCP maximum of values per answer. */
const MAX_VALUES = 100;

export function registerCompletions(server: McpServer, env: ToolEnv): void {
  server.server.setRequestHandler(CompleteRequestSchema, async (request): Promise<CompleteResult> => {
    const { ref, argument, context } = request.params;
    const prefix = argument.value.toLowerCase();
    let candidates: string[] = [];
    const isTemplate = ref.type === 'ref/resource' && ROOM_TEMPLATES.includes(ref.uri);
    const isPrompt = ref.type === 'ref/prompt' && PROMPTS.some((p) => p.name === ref.name);
    const team = isTemplate && ref.uri.startsWith('letagents://teams/') ? (context?.arguments?.team ?? null) : LOCAL_PLACE;
    if (isTemplate && argument.name === 'team') candidates = (await env.services.places.list()).slice(1);
    else if (isTemplate && argument.name === 'room_id') candidates = team === null ? [] : await roomIds(env, [await storageOf(env, team)]);
    else if (isPrompt && argument.name === 'room') candidates = [...new Set(await roomIds(env, await env.services.places.reachable()))];
    else if (isTemplate && (ref.uri === TASK_TEMPLATE || ref.uri === TEAM_TASK_TEMPLATE) && argument.name === 'task_id' && team !== null) {
      candidates = await taskIds(env, await storageOf(env, team), context?.arguments?.room_id);
    }
    const values = candidates.filter((value) => value.toLowerCase().startsWith(prefix));
    return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } };
  });
}

/** A place's storage; none (null) for a team this app does not know. */
async function storageOf(env: ToolEnv, place: string): Promise<Storage | null> {
  return env.services.places.get(place).catch(() => null);
}

/** Non-archived rooms of the places given, the most recently active first (each room list's order). */
async function roomIds(_env: ToolEnv, storages: ReadonlyArray<Storage | null>): Promise<string[]> {
  const ids: string[] = [];
  for (const storage of storages) {
    if (storage) ids.push(...(await storage.read((q) => listRooms(q))).filter((room) => !room.archived).map((room) => room.roomId));
  }
  return ids;
}

/** The tasks of the room named in context, else of the current room (when it is in that place). */
async function taskIds(env: ToolEnv, storage: Storage | null, roomId: string | undefined): Promise<string[]> {
  const room = roomId ?? (env.conn.currentPlace === storage?.place ? env.conn.currentRoom : null);
  if (!room || !storage) return [];
  const board = await storage.read((q) => getBoard(q, room, { openOnly: false }));
  return board.map((task) => task.id);
}
