// Repository tools (mcp-tools.md §3): check_repo inspects a working directory;
// initialize_repo writes .letagents.json at the git root and joins its room.
import { z } from 'zod';
import { errors } from '../../domain/errors';
import { findRepoConfig, readRepoConfigAt, writeRepoConfig } from '../../domain/rooms/repoConfig';
import { classifyRoomName, inviteCodeOf } from '../../domain/rooms/roomIds';
import { ensureRoom } from '../../domain/rooms/rooms';
import { isDomainError } from '../../domain/errors';
import { enterRoom } from '../joining';
import { placeToJoin } from './rooms';
import { inspectWorkingDir } from '../repoContext';
import type { ToolEnv } from '../services';
import { objectResult } from '../outputSchemas';
import { additive, defineTool, readOnly } from '../toolKit';

const cwd = z.string().optional();

function cwdOf(env: ToolEnv, requested: string | undefined): string {
  const cwd = requested?.trim() || env.conn.info.cwd;
  if (!cwd) throw errors.R11();
  return cwd;
}

export const checkRepo = defineTool({
  name: 'check_repo',
  title: 'Check repository',
  description: "A folder's git repo, .letagents.json and room, vs. the current room.",
  input: { cwd },
  output: objectResult,
  annotations: readOnly,
  async run(args, env) {
    const ctx = await inspectWorkingDir(cwdOf(env, args.cwd));
    const detected = ctx.configuredRoom ?? ctx.derivedRepoRoom;
    const current = env.conn.currentRoom;
    const scope = !current ? 'none' : current === detected ? 'matches_detected_repo_context' : 'existing_joined_session_not_derived_from_inspected_cwd';
    return {
      cwd: ctx.cwd,
      repo_context_status: ctx.repoRoot ? 'git_repo_detected' : 'not_inside_git_repo',
      git_repo_root: ctx.repoRoot,
      config_file: ctx.configPath,
      config_contents: ctx.configContents,
      configured_room_from_file: ctx.configuredRoom,
      configured_active_room_from_context: ctx.configuredRoom,
      derived_room_from_git: ctx.derivedRepoRoom,
      derived_repo_room_from_git: ctx.derivedRepoRoom,
      derived_branch_room_from_git: null,
      git_current_branch: ctx.currentBranch,
      git_default_branch: ctx.defaultBranch,
      detected_room_from_context: detected,
      current_room: current,
      current_room_scope: scope,
      warning: scope === 'existing_joined_session_not_derived_from_inspected_cwd' && detected
        ? `The current room (${current}) is not the room of this directory (${detected}).`
        : null,
      join_hint: detected && current !== detected ? `Call join_room with name "${detected}" to join this repository's room.` : null,
    };
  },
});

export const initializeRepo = defineTool({
  name: 'initialize_repo',
  title: 'Initialize repository',
  description: 'Write .letagents.json at the git root, then join its room.',
  input: {
    room: z.string().optional().describe('Default: the git origin\'s room.'),
    cwd,
  },
  output: objectResult,
  annotations: additive,
  async run(args, env) {
    const cwd = cwdOf(env, args.cwd);
    const ctx = await inspectWorkingDir(cwd);
    if (!ctx.repoRoot) throw errors.R9();
    const existing = findRepoConfig(cwd) ?? readRepoConfigAt(ctx.repoRoot);
    if (existing) throw errors.R8(existing.path);
    const name = args.room?.trim() || ctx.derivedRepoRoom;
    if (!name) throw errors.R10();
    const { roomId, kind } = classifyRoomName(name);
    const path = writeRepoConfig(ctx.repoRoot, roomId);
    try {
      const { place, storage } = await placeToJoin(env, kind, roomId);
      const { room } = await storage.write((tx) => ensureRoom(tx, { roomId, kind }));
      // The file is written either way; an archived room is configured but not joined.
      if (room.archived_at) throw errors.R4();
      await enterRoom(env, place, room, 'config');
      return { success: true, created: path, room_id: room.room_id, code: inviteCodeOf(room), joined: true, hint: 'Register this chat with register_agent_session in this room next.' };
    } catch (error) {
      if (!isDomainError(error)) throw error;
      return { success: true, created: path, room_id: roomId, code: null, joined: false, error: error.message };
    }
  },
});
