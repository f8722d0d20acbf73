// completion/complete: suggestions for the variables of the resource templates (room ids,
// task ids of the room given in context) and for the prompts' room argument. A reference
// this server does not know has no suggestions (an empty list, not an error).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CompleteRequestSchema, type CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import { listRooms } from '../domain/rooms/rooms';
import { getBoard } from '../domain/tasks/board';
import { MESSAGES_TEMPLATE, TASK_TEMPLATE } from './resources';
import { PROMPTS } from './prompts';
import type { ToolEnv } from './services';

/** The MCP maximum of values per answer. */
const MAX_VALUES = 100;

export function registerCompletions(server: McpServer, env: ToolEnv): void {
  server.server.setRequestHandler(CompleteRequestSchema, async (request): Promise<CompleteResult> => {
    const { ref, argument, context } = request.params;
    const prefix = argument.value.toLowerCase();
    let candidates: string[] = [];
    const isTemplate = ref.type === 'ref/resource' && (ref.uri === MESSAGES_TEMPLATE || ref.uri === TASK_TEMPLATE);
    const isPrompt = ref.type === 'ref/prompt' && PROMPTS.some((p) => p.name === ref.name);
    if ((isTemplate && argument.name === 'room_id') || (isPrompt && argument.name === 'room')) candidates = await roomIds(env);
    else if (isTemplate && ref.uri === TASK_TEMPLATE && argument.name === 'task_id') candidates = await taskIds(env, context?.arguments?.room_id);
    const values = candidates.filter((value) => value.toLowerCase().startsWith(prefix));
    return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } };
  });
}

/** Non-archived rooms, the most recently active first (the room list's order). */
async function roomIds(env: ToolEnv): Promise<string[]> {
  const rooms = await env.services.store.read((q) => listRooms(q));
  return rooms.filter((room) => !room.archived).map((room) => room.roomId);
}

/** The tasks of the room named in context, else of the current room. */
async function taskIds(env: ToolEnv, roomId: string | undefined): Promise<string[]> {
  const room = roomId ?? env.conn.currentRoom;
  if (!room) return [];
  const board = await env.services.store.read((q) => getBoard(q, room, { openOnly: false }));
  return board.map((task) => task.id);
}
