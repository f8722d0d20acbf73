// Room tools (mcp-tools.md §3): create_room, join_code, join_room, get_current_room,
// resume_room_session. Repository tools live in repoTools.ts. create_room and join_room
// take an optional `team` (a team's name, or "local"); without it a new room goes where
// placement says (team-rooms.md §3), an existing one is joined where it is, and an invite
// code is looked up in every place.
import { z } from 'zod';
import { errors } from '../../domain/errors';
import { classifyRoomName, inviteCodeOf, isInviteShaped, parseInviteCode } from '../../domain/rooms/roomIds';
import { createInviteRoom, ensureRoom, getRoom, nearRoomIds } from '../../domain/rooms/rooms';
import { isLikelyTypo } from '../../../shared/nearMatch';
import { getSavedCurrentRoom, getSavedRoomSession } from '../../domain/rooms/clientRoomSessions';
import type { Storage } from '../../store/port';
import { agentIdentity } from '../agentIdentity';
import { locateRoom } from '../identity';
import { placeKey } from '../../domain/placeKeys';
import { enterRoom } from '../joining';
import { joinPrompt, roomResponse } from '../roomResponse';
import { detectRoomFromContext } from '../repoContext';
import type { ToolEnv } from '../services';
import { objectResult, roomResult } from '../outputSchemas';
import { additive, checkWorkerFacade, defineTool, ignored, readOnly, workerFacade } from '../toolKit';

/** session_mode is ignored; the result names the mode a letagents client asked for, when it is one. */
const sessionModeOf = (requested: unknown) => (requested === 'live' ? 'live' : 'current');

/** The `team` input of create_room and join_room. */
const team = z.string().optional().describe('Team name or "local".');

/** The place a `team` argument names (place_unknown, soft, naming the places), or null without one. */
async function askedPlace(env: ToolEnv, requested: string | undefined): Promise<{ place: string; storage: Storage } | null> {
  if (requested === undefined || requested.trim() === '') return null;
  const place = await env.services.places.name(requested);
  return { place, storage: await env.services.places.get(place) };
}

/** An invite room by code: in the place asked for, else in every place (locateRoom's order). */
async function joinInvite(env: ToolEnv, rawCode: string, inPlace: { place: string; storage: Storage } | null) {
  const code = parseInviteCode(rawCode);
  const { place, storage } = inPlace ?? (await locateRoom(env, code));
  const room = await storage.read((q) => getRoom(q, code));
  if (!room || room.kind !== 'invite') throw errors.R3();
  // Like join_room: an archived room is read-only, so it is not joined.
  if (room.archived_at) throw errors.R4();
  await enterRoom(env, place, room, 'join_code');
  return { place, room };
}

export const createRoom = defineTool({
  name: 'create_room',
  title: 'Create room',
  description: 'New invite room with a fresh code; it becomes current.',
  input: { team },
  output: roomResult,
  annotations: additive,
  async run(args, env) {
    const { places } = env.services;
    const place = (await askedPlace(env, args.team))?.place ?? (await places.placeForNewRoom('invite', ''));
    const room = await (await places.get(place)).write((tx) => createInviteRoom(tx));
    await enterRoom(env, place, room, 'join_code');
    return roomResponse(env, place, room, 'join_code');
  },
});

export const joinCode = defineTool({
  name: 'join_code',
  title: 'Join room by code',
  description: 'Join an invite room by code; it becomes current.',
  input: { code: z.string().describe('e.g. ABCX-7291.'), session_mode: ignored() },
  output: roomResult,
  annotations: additive,
  async run(args, env) {
    const { place, room } = await joinInvite(env, args.code, null);
    return { ...await roomResponse(env, place, room, 'join_code'), session_mode: 'current' };
  },
});

export const joinRoom = defineTool({
  name: 'join_room',
  title: 'Join room',
  description: 'Join or create a room by name, invite code or git remote; it becomes current.',
  input: {
    name: z.string().optional(),
    team,
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
    const asked = await askedPlace(env, args.team);
    if (isInviteShaped(name.trim())) {
      const { place, room } = await joinInvite(env, name, asked);
      return { ...await roomResponse(env, place, room, 'join_code'), session_mode: sessionModeOf(args.session_mode), created: false };
    }
    const { roomId, kind } = classifyRoomName(name);
    const { place, storage } = asked ?? (await placeToJoin(env, kind, roomId));
    if (kind === 'named') await refuseNearMiss(env, place, storage, roomId);
    const { room, created } = await storage.write((tx) => ensureRoom(tx, { roomId, kind }));
    if (room.archived_at) throw errors.R4();
    await enterRoom(env, place, room, 'join_room');
    return { ...await roomResponse(env, place, room, 'join_room'), session_mode: sessionModeOf(args.session_mode), created };
  },
});

/**
 * A new named room whose name is a typo of one that exists (design-revew beside design-review)
 * is refused with the near match (R14) the first time: an agent that means it asks again.
 * Only a likely slip counts (isLikelyTypo): case-3 beside case-1 is a room of its own.
 * Repository rooms are exempt: acme/api and acme/app are different repositories.
 */
async function refuseNearMiss(env: ToolEnv, place: string, storage: Storage, roomId: string): Promise<void> {
  const key = placeKey(place, roomId);
  if (env.conn.confirmedNewRooms.has(key)) return;
  const near = (await storage.read(async (q) => ((await getRoom(q, roomId)) ? [] : nearRoomIds(q, roomId, 'named')))).filter((name) => isLikelyTypo(roomId, name));
  if (near.length === 0) return;
  env.conn.confirmedNewRooms.add(key);
  throw errors.R14(roomId, near);
}

/**
 * Where join_room without `team` goes: a room of that id where placement puts new ones, else
 * one that already exists elsewhere (locateRoom: the place this connection was in, this
 * computer, the teams in order), else a new room where placement puts it.
 */
export async function placeToJoin(env: ToolEnv, kind: 'repo' | 'named' | 'invite', roomId: string): Promise<{ place: string; storage: Storage }> {
  const { places } = env.services;
  const target = await places.placeForNewRoom(kind, roomId);
  const targetStorage = await places.get(target);
  if (await targetStorage.read((q) => getRoom(q, roomId))) return { place: target, storage: targetStorage };
  const existing = await locateRoom(env, roomId);
  if (await existing.storage.read((q) => getRoom(q, roomId))) return existing;
  return { place: target, storage: targetStorage };
}

export const getCurrentRoom = defineTool({
  name: 'get_current_room',
  title: 'Current room',
  description: 'Your current room and its join prompt; connected:false if none.',
  input: { conversation_id: ignored() },
  output: objectResult,
  annotations: readOnly,
  async run(_args, env) {
    const current = env.conn.currentRoom;
    const place = env.conn.currentPlace;
    const room = current ? await (await env.services.places.get(place)).read((q) => getRoom(q, current)) : null;
    if (!room) return { connected: false, message: 'Not currently in any room' };
    return {
      connected: true,
      room_id: room.room_id,
      code: inviteCodeOf(room),
      display_name: room.display_name,
      kind: room.kind,
      git_room: room.kind === 'repo',
      joined_via: env.conn.currentJoinedVia,
      is_local: place === 'local',
      place,
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
  description: 'Rejoin your saved room after a restart (room_id: another you joined).',
  input: {
    room_id: z.string().optional(),
    ...workerFacade,
  },
  output: objectResult,
  annotations: additive,
  async run(args, env) {
    await checkWorkerFacade(env, args.worker_id);
    const requested = args.room_id?.trim();
    const saved = await env.services.store.read((q) =>
      requested ? getSavedRoomSession(q, env.conn.clientKey, requested) : getSavedCurrentRoom(q, env.conn.clientKey),
    );
    if (!saved) throw errors.R7();
    const room = await (await env.services.places.get(saved.place)).read((q) => getRoom(q, saved.roomId));
    if (!room) throw errors.R3();
    const joinedVia = saved.joinedVia;
    await enterRoom(env, saved.place, room, joinedVia);
    const response = await roomResponse(env, saved.place, room, joinedVia);
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

