// Room tools (mcp-tools.md §3): create_room, join_code, join_room, get_current_room,
// resume_room_session. Repository tools live in repoTools.ts.
import { z } from 'zod';
import { errors } from '../../domain/errors';
import { classifyRoomName, inviteCodeOf, isInviteShaped, parseInviteCode } from '../../domain/rooms/roomIds';
import { createInviteRoom, ensureRoom, getRoom } from '../../domain/rooms/rooms';
import { getSavedCurrentRoom, getSavedRoomSession } from '../../domain/rooms/clientRoomSessions';
import { agentIdentity } from '../agentIdentity';
import { enterRoom } from '../joining';
import { joinPrompt, roomResponse } from '../roomResponse';
import { detectRoomFromContext } from '../repoContext';
import type { ToolEnv } from '../services';
import { additive, checkWorkerFacade, defineTool, readOnly, WORKER_ID_DESCRIPTION } from '../toolKit';

const sessionMode = z.enum(['live', 'current']).optional().describe('Accepted for compatibility and ignored.');

async function joinInvite(env: ToolEnv, rawCode: string) {
  const code = parseInviteCode(rawCode);
  const room = getRoom(env.services.store.db, code);
  if (!room || room.kind !== 'invite') throw errors.R3();
  // Like join_room: an archived room is read-only, so it is not joined.
  if (room.archived_at) throw errors.R4();
  await enterRoom(env, room, 'join_code');
  return room;
}

export const createRoom = defineTool({
  name: 'create_room',
  description: 'Create a new invite room with a fresh code (like ABCX-7291) and make it the current room.',
  input: {},
  annotations: additive,
  async run(_args, env) {
    const room = await env.services.store.write((tx) => createInviteRoom(tx));
    await enterRoom(env, room, 'join_code');
    return roomResponse(env, room, 'join_code');
  },
});

export const joinCode = defineTool({
  name: 'join_code',
  description: 'Join an existing invite room by its code (like ABCX-7291); it becomes the current room.',
  input: { code: z.string().describe('Invite code, e.g. ABCX-7291. Trimmed and upper-cased.'), session_mode: sessionMode },
  annotations: additive,
  async run(args, env) {
    const room = await joinInvite(env, args.code);
    return { ...roomResponse(env, room, 'join_code'), session_mode: 'current' };
  },
});

export const joinRoom = defineTool({
  name: 'join_room',
  description: 'Join a room by name: an invite code, a git remote or github.com/owner/repo (repo room), or any other name (named room). Repo and named rooms are created if missing. Without a name, joins the room of the working directory (.letagents.json, else the git remote).',
  input: {
    name: z.string().optional().describe('Room name, invite code or git remote. Default: the room detected from the working directory.'),
    session_mode: sessionMode,
  },
  annotations: additive,
  async run(args, env) {
    let name = args.name;
    if (name === undefined || name.trim() === '') {
      const detected = env.conn.info.cwd ? await detectRoomFromContext(env.conn.info.cwd) : null;
      if (!detected) throw errors.R1();
      name = detected;
    }
    if (isInviteShaped(name.trim())) {
      const room = await joinInvite(env, name);
      return { ...roomResponse(env, room, 'join_code'), session_mode: args.session_mode ?? 'current', created: false };
    }
    const { roomId, kind } = classifyRoomName(name);
    const { room, created } = await env.services.store.write((tx) => ensureRoom(tx, { roomId, kind }));
    if (room.archived_at) throw errors.R4();
    await enterRoom(env, room, 'join_room');
    return { ...roomResponse(env, room, 'join_room'), session_mode: args.session_mode ?? 'current', created };
  },
});

export const getCurrentRoom = defineTool({
  name: 'get_current_room',
  description: 'The room this connection is in, with the join prompt; connected:false when none.',
  input: { conversation_id: z.string().optional().describe('Accepted for compatibility and ignored.') },
  annotations: readOnly,
  run(_args, env) {
    const room = env.conn.currentRoom ? getRoom(env.services.store.db, env.conn.currentRoom) : null;
    if (!room) return { connected: false, message: 'Not currently in any room' };
    return {
      connected: true,
      room_id: room.room_id,
      code: inviteCodeOf(room),
      display_name: room.display_name,
      kind: room.kind,
      git_room: room.kind === 'repo',
      joined_via: env.conn.currentJoinedVia,
      is_local: true,
      agent_identity: agentIdentity(env, null),
      auth: env.services.authSummary(),
      agent_prompt_kind: 'join',
      agent_prompt: joinPrompt(room.room_id),
    };
  },
});

export const resumeRoomSession = defineTool({
  name: 'resume_room_session',
  description: 'Rejoin the room this client (client name + working directory) was in before a restart, or the given room it joined before.',
  input: {
    room_id: z.string().optional().describe('A room this client joined before. Default: its saved current room.'),
    worker_id: z.string().optional().describe(WORKER_ID_DESCRIPTION),
  },
  annotations: additive,
  async run(args, env) {
    checkWorkerFacade(env, args.worker_id);
    const db = env.services.store.db;
    const saved = args.room_id?.trim()
      ? getSavedRoomSession(db, env.conn.clientKey, args.room_id.trim())
      : getSavedCurrentRoom(db, env.conn.clientKey);
    if (!saved) throw errors.R7();
    const room = getRoom(db, saved.roomId);
    if (!room) throw errors.R3();
    const joinedVia = saved.joinedVia;
    await enterRoom(env, room, joinedVia);
    const response = roomResponse(env, room, joinedVia);
    return {
      success: true,
      rejoined_from_local_state: true,
      server_session_resumed: false,
      last_message_id_before_restart: saved.lastMessageId ?? null,
      room: response,
      agent_identity: response.agent_identity,
      agent_prompt_kind: 'join',
      agent_prompt: response.agent_prompt,
    };
  },
});

