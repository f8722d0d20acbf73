// MCP prompts (clients such as Claude Code offer them as slash commands):
// `start` joins this repository's room, registers once with a fresh random key and loops
// on wait_for_messages; `status` summarises the room, this chat's tasks and the open
// requests to people, from a snapshot taken when the prompt is fetched.
import { randomBytes } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema, type GetPromptResult, type Prompt } from '@modelcontextprotocol/sdk/types.js';
import { getHumanRequests } from '../domain/knowledge/requests';
import { latestNumber, totalMessageCount } from '../domain/messages/read';
import { getRoom } from '../domain/rooms/rooms';
import { getBoard } from '../domain/tasks/board';
import { msgId } from '../domain/ids';
import { heldWorkerSessions, liveImplicitSession, locateRoom, newestLiveLegacySession } from './identity';
import { detectRoomFromContext } from './repoContext';
import { INVALID_PARAMS, rpcError } from './results';
import type { Queryable } from '../store/port';
import type { ToolEnv } from './services';

const roomArgument = { name: 'room', description: 'Room name or id. Default: this folder\'s room (start) or the current room (status).', required: false };

export const PROMPTS: Prompt[] = [
  { name: 'start', title: 'Join this repository\'s room', description: 'Join the room, register this chat once with a fresh random key, then loop on wait_for_messages.', arguments: [roomArgument] },
  { name: 'status', title: 'Room status', description: 'Summarise the room, the tasks this chat holds or reviews, and the open requests to people.', arguments: [roomArgument] },
];

export function registerPrompts(server: McpServer, env: ToolEnv): void {
  server.server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  server.server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const room = request.params.arguments?.room?.trim() || null;
    if (request.params.name === 'start') return userPrompt('Join the LetAgents room and work there', await startText(env, room));
    if (request.params.name === 'status') return userPrompt('Summarise the LetAgents room', await statusText(env, room));
    throw rpcError(INVALID_PARAMS, `Unknown prompt: ${request.params.name}. Prompts: start, status.`);
  });
}

const userPrompt = (description: string, text: string): GetPromptResult => ({
  description,
  messages: [{ role: 'user', content: { type: 'text', text } }],
});

async function folderRoom(env: ToolEnv): Promise<string | null> {
  await env.ready;
  const cwd = env.conn.info.cwd;
  return cwd ? await detectRoomFromContext(cwd).catch(() => null) : null;
}

/** A key no other chat has: the prompt is fetched once per chat. */
export const freshRegistrationKey = () => `chat-${randomBytes(16).toString('hex')}`;

async function startText(env: ToolEnv, requested: string | null): Promise<string> {
  const room = requested ?? (await folderRoom(env));
  const join = room
    ? `1. Call join_room with name "${room}".`
    : '1. No room is configured for this folder. Ask the user which room to join and call join_room with that name ' +
      '(or add a .letagents.json naming the room; initialize_repo writes one).';
  return [
    'Work in a LetAgents room, where AI agents and people coordinate.',
    join,
    `2. Register this chat once: call register_agent_session with the room_id join_room returned, registration_key "${freshRegistrationKey()}" ` +
      'and a short codename of your own as display_name. Keep the returned worker_id and pass it on every LetAgents call.',
    '3. Loop: call wait_for_messages with your worker_id, passing the previous result\'s last_observed_message_id as after_message_id. ' +
      'Act on what wakes you (answer with send_message; take work with get_board, claim_task, update_task, complete_task), then wait again.',
    '4. After a restart, call register_agent_session with your worker_id and room_id before anything else.',
  ].join('\n');
}

async function statusText(env: ToolEnv, requested: string | null): Promise<string> {
  const current = !requested && env.conn.currentRoom ? { place: env.conn.currentPlace, roomId: env.conn.currentRoom } : null;
  const roomId = requested ?? current?.roomId ?? (await folderRoom(env));
  const where = current ? { place: current.place, storage: await env.services.places.get(current.place) } : roomId ? await locateRoom(env, roomId) : null;
  if (!where || !roomId) return noRoom(roomId);
  return where.storage.read((q) => roomStatus(env, q, where.place, roomId));
}

const noRoom = (roomId: string | null) =>
  roomId
    ? `There is no LetAgents room "${roomId}". Tell the user, and offer to join one with join_room.`
    : 'This chat is in no LetAgents room yet. Tell the user, and offer to join one with join_room (or run the start prompt).';

async function roomStatus(env: ToolEnv, q: Queryable, place: string, roomId: string): Promise<string> {
  const room = await getRoom(q, roomId);
  if (!room) return noRoom(roomId);
  const at = { place, roomId: room.room_id };
  const mine = new Set(
    [...(await heldWorkerSessions(env, q, at)), await newestLiveLegacySession(env, q, at, true), await liveImplicitSession(env, q, at)]
      .filter((s) => s !== null)
      .map((s) => s.session_id),
  );
  const tasks = await getBoard(q, room.room_id);
  const line = (t: (typeof tasks)[number]) => `- ${t.id} [${t.status}] ${t.title}${t.assignee ? ` (${t.assignee})` : ''}`;
  const held = tasks.filter((t) => t.active_leases.some((l) => l.agent_session_id !== null && mine.has(l.agent_session_id)));
  const requests = (await getHumanRequests(q, room.room_id)).filter((r) => r.status === 'open');
  const latest = await latestNumber(q, room.room_id);
  const total = await totalMessageCount(q, room.room_id);
  return [
    `Summarise this LetAgents room for the user: what is going on, the tasks this chat holds or reviews, the open requests to people, and what needs attention next. Use get_board and read_messages for details.`,
    `Room: ${room.display_name} (${room.room_id}, ${room.kind}${room.archived_at ? ', archived' : ''}${place === 'local' ? '' : `, team ${place}`}); ${total} messages${latest ? `, newest ${msgId(latest)}` : ''}.`,
    `Open tasks (${tasks.length}):`,
    ...(tasks.length ? tasks.map(line) : ['- none']),
    `Held or reviewed by this chat (${held.length}):`,
    ...(held.length ? held.map(line) : ['- none']),
    `Open requests to people (${requests.length}):`,
    ...(requests.length ? requests.map((r) => `- ${r.id} [${r.category}] ${r.title} (asked by ${r.requested_by})`) : ['- none']),
  ].join('\n');
}
