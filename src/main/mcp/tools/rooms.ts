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
import { objectResult, roomResult } from '../outputSchemas';
import { additive, checkWorkerFacade, defineTool, ignored, readOnly, workerFacade } from '../toolKit';

/** session_mode is ignored; the result names the mode a letagents client asked for, when it is one. */
const sessionModeOf = (requested: unknown) => (requested === 'live' ? 'live' : 'current');

async function joinInvite(env: ToolEnv, rawCode: string) {
  const code = parseInviteCode(rawCode);
  const room = await env.services.store.read((q) => getRoom(q, code));
  if (!room || room.kind !== 'invite') throw errors.R3();
  // Like join_room: an archived room is read-only, so it is not joined.
  if (room.archived_at) throw errors.R4();
  await enterRoom(env, room, 'join_code');
  return room;
}

export const createRoom = defineTool({
  name: 'create_room',
  title: 'Create room',
  description: 'Create an invite room with a fresh code (like ABCX-7291); it becomes current.',
  input: {},
  output: roomResult,
  annotations: additive,
  async run(_args, env) {
    const room = await env.services.store.write((tx) => createInviteRoom(tx));
    await enterRoom(env, room, 'join_code');
    return roomResponse(env, room, 'join_code');
  },
});

export const joinCode = defineTool({
  name: 'join_code',
  title: 'Join room by code',
  description: 'Join an invite room by its code; it becomes current.',
  input: { code: z.string().describe('Invite code, e.g. ABCX-7291.'), session_mode: ignored() },
  output: roomResult,
  annotations: additive,
  async run(args, env) {
    const room = await joinInvite(env, args.code);
    return { ...await roomResponse(env, room, 'join_code'), session_mode: 'current' };
  },
});

export const joinRoom = defineTool({
  name: 'join_room',
  title: 'Join room',
  description: 'Join a room (created if missing): any name, an invite code or a git remote; it becomes current.',
  input: {
    name: z.string().optional().describe('Default: this folder\'s room (.letagents.json or git origin).'),
    session_mode: ignored(),
  },
  output: roomResult,
  annotations: additive,
  async run(args, env) {
    let name = args.name;
    if (name === undefined || name.trim() === '') {
      const detected = env.conn.info.cwd ? await detectRoomFromContext(env.conn.info.cwd) : null;
      if (!detected) throw errors.R12();
      name = detected;
    }
    if (isInviteShaped(name.trim())) {
      const room = await joinInvite(env, name);
      return { ...await roomResponse(env, room, 'join_code'), session_mode: sessionModeOf(args.session_mode), created: false };
    }
    const { roomId, kind } = classifyRoomName(name);
    const { room, created } = await env.services.store.write((tx) => ensureRoom(tx, { roomId, kind }));
    if (room.archived_at) throw errors.R4();
    await enterRoom(env, room, 'join_room');
    return { ...await roomResponse(env, room, 'join_room'), session_mode: sessionModeOf(args.session_mode), created };
  },
});

export const getCurrentRoom = defineTool({
  name: 'get_current_room',
  title: 'Current room',
  description: 'This connection\'s current room and its join prompt; connected:false when none.',
  input: { conversation_id: ignored() },
  output: objectResult,
  annotations: readOnly,
  async run(_args, env) {
    const current = env.conn.currentRoom;
    const room = current ? await env.services.store.read((q) => getRoom(q, current)) : null;
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
      agent_identity: await agentIdentity(env, null),
      auth: await env.services.authSummary(),
      agent_prompt_kind: 'join',
      agent_prompt: joinPrompt(room.room_id),
    };
  },
});

export const resumeRoomSession = defineTool({
  name: 'resume_room_session',
  title: 'Resume room',
  description: 'Rejoin this client\'s room from before a restart, or another room it joined.',
  input: {
    room_id: z.string().optional().describe('Default: the saved current room.'),
    ...workerFacade,
  },
  output: objectResult,
  annotations: additive,
  async run(args, env) {
    await checkWorkerFacade(env, args.worker_id);
    const requested = args.room_id?.trim();
    const { saved, room } = await env.services.store.read(async (q) => {
      const saved = requested ? await getSavedRoomSession(q, env.conn.clientKey, requested) : await getSavedCurrentRoom(q, env.conn.clientKey);
      return { saved, room: saved ? await getRoom(q, saved.roomId) : null };
    });
    if (!saved) throw errors.R7();
    if (!room) throw errors.R3();
    const joinedVia = saved.joinedVia;
    await enterRoom(env, room, joinedVia);
    const response = await roomResponse(env, room, joinedVia);
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

