// Onboarding tools (mcp-tools.md §8): where this agent stands, and GitHub sign-in
// through the device flow. Every outcome is soft; the device code never leaves the app.
import { z } from 'zod';
import { getSavedCurrentRoom } from '../../domain/rooms/clientRoomSessions';
import { classifyRoomName } from '../../domain/rooms/roomIds';
import { getRoom } from '../../domain/rooms/rooms';
import { agentIdentity } from '../agentIdentity';
import { locateRoom } from '../identity';
import { enterRoom } from '../joining';
import { inspectWorkingDir } from '../repoContext';
import { objectResult } from '../outputSchemas';
import { checkWorkerFacade, defineTool, idempotentChange, readOnly, workerFacade } from '../toolKit';

const NO_AUTH = { success: false, error: 'GitHub sign-in is not available in this app.' };

export const getOnboardingStatus = defineTool({
  name: 'get_onboarding_status',
  title: 'Onboarding status',
  description: 'GitHub sign-in, current and saved rooms, this folder\'s room, the next step.',
  input: { cwd: z.string().optional() },
  output: objectResult,
  annotations: readOnly,
  async run(args, env) {
    const cwd = args.cwd?.trim() || env.conn.info.cwd;
    const ctx = cwd ? await inspectWorkingDir(cwd) : null;
    const saved = await env.services.store.read((q) => getSavedCurrentRoom(q, env.conn.clientKey));
    const auth = env.services.auth ? await env.services.auth.onboardingStatus() : null;
    const current = env.conn.currentRoom;
    const nextStep = auth?.pending_device_auth
      ? 'poll_device_auth'
      : saved && saved.roomId !== current
        ? 'resume_room_session'
        : !current
          ? 'join_room'
          : null;
    return {
      ...(auth ?? { authenticated: false, auth_source: 'none', auth_hint: null, account: null, token_expires_at: null, pending_device_auth: null, keychain_available: false, github_client_configured: false }),
      agent_identity: await agentIdentity(env, null),
      current_room: current,
      saved_current_room: saved?.roomId ?? null,
      detected_room_from_context: ctx ? (ctx.configuredRoom ?? ctx.derivedRepoRoom) : null,
      configured_room_from_file: ctx?.configuredRoom ?? null,
      derived_repo_room_from_git: ctx?.derivedRepoRoom ?? null,
      git_current_branch: ctx?.currentBranch ?? null,
      git_default_branch: ctx?.defaultBranch ?? null,
      repo_root: ctx?.repoRoot ?? null,
      next_step: nextStep,
    };
  },
});

export const startDeviceAuth = defineTool({
  name: 'start_device_auth',
  title: 'Start GitHub sign-in',
  description: 'Start GitHub sign-in: a code and the page to enter it at; then poll_device_auth.',
  input: {
    room_id: z.string().optional().describe('Room for poll_device_auth\'s auto_join.'),
    ...workerFacade,
    force: z.boolean().optional().describe('New request even if one is pending.'),
  },
  output: objectResult,
  // Talks to GitHub: open world (the default).
  annotations: { destructiveHint: false },
  async run(args, env) {
    await checkWorkerFacade(env, args.worker_id);
    if (!env.services.auth) return NO_AUTH;
    const cwd = env.conn.info.cwd;
    const configured = cwd ? (await inspectWorkingDir(cwd)).configuredRoom : null;
    return env.services.auth.startDeviceAuth({
      roomId: args.room_id ?? null,
      suggestedRoomId: env.conn.currentRoom ?? configured,
      force: args.force ?? false,
    });
  },
});

export const pollDeviceAuth = defineTool({
  name: 'poll_device_auth',
  title: 'Poll GitHub sign-in',
  description: 'Check GitHub sign-in: pending, slow_down, denied, expired or authorized.',
  input: {
    request_id: z.string().optional(),
    room_id: z.string().optional(),
    ...workerFacade,
    auto_join: z.boolean().optional().describe('Once authorized, join room_id (else the suggested room).'),
  },
  output: objectResult,
  // Talks to GitHub, and a new sign-in replaces the saved token: the defaults (open world, destructive).
  annotations: {},
  async run(args, env) {
    await checkWorkerFacade(env, args.worker_id);
    if (!env.services.auth) return NO_AUTH;
    const { result, suggestedRoomId } = await env.services.auth.pollDeviceAuth({ requestId: args.request_id ?? null });
    if (!('status' in result) || result.status !== 'authorized') return result;
    let joined: string | null = null;
    if (args.auto_join) {
      const target = args.room_id?.trim() || suggestedRoomId || env.conn.currentRoom;
      if (target) {
        const roomId = classifyRoomName(target).roomId;
        const { place, storage } = await locateRoom(env, roomId);
        const room = await storage.read((q) => getRoom(q, roomId));
        if (room && !room.archived_at) {
          await enterRoom(env, place, room, 'join_room');
          joined = room.room_id;
        }
      }
    }
    return { ...result, auto_joined_room: joined, agent_identity: await agentIdentity(env, null) };
  },
});

export const clearSavedAuth = defineTool({
  name: 'clear_saved_auth',
  title: 'Forget a pending GitHub sign-in',
  description: "Forget a pending GitHub sign-in; signing out is the person's, in the app.",
  input: {},
  output: objectResult,
  annotations: idempotentChange,
  run: async (_args, env) => (env.services.auth ? env.services.auth.forgetPendingSignIn() : NO_AUTH),
});
