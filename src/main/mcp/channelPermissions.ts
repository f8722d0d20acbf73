// The channel permission relay (issue 26): an interactive Claude Code session that loaded our
// server as a channel sends `notifications/claude/channel/permission_request` when it would ask
// the person at its terminal; the request becomes the same kind of "Needs you" item as a managed
// turn's ("Allow" and "Deny" only: the protocol has no "for this turn"), and the person's answer
// goes back as `notifications/claude/channel/permission`. The terminal's dialog stays open: the
// first answer wins and Claude Code drops the other (it does not tell us when the terminal
// answered). The item closes when the session disconnects; the time limit closes it without
// answering, so the terminal keeps its own dialog. Only a registered agent session whose client
// takes channel pushes may ask (issue 32 item 10): any other MCP client could otherwise raise
// an item in an agent's name; the item is named by that session's own agent, never by what the
// client calls itself, and a refused request is said in the log (its terminal still asks).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { getSession, type SessionRow } from '../domain/sessions/sessions';
import { splitPlaceKey } from '../domain/placeKeys';
import { storageIn } from '../store/places';
import { takesChannelPushes } from './channel';
import type { ToolEnv } from './services';

export const PERMISSION_CAPABILITY = 'claude/channel/permission';

const PermissionRequest = z.object({
  method: z.literal('notifications/claude/channel/permission_request'),
  params: z.object({
    // Five lowercase letters a–z without "l".
    request_id: z.string().regex(/^[a-km-z]{5}$/),
    tool_name: z.string().min(1).max(200),
    description: z.string().max(2_000).default(''),
    input_preview: z.string().max(4_000).default(''),
  }),
});

export function registerChannelPermissions(server: McpServer, env: ToolEnv): void {
  server.server.setNotificationHandler(PermissionRequest, (notification) => {
    void relay(server, env, notification.params).catch((error: unknown) => console.warn('permission relay failed:', error));
  });
}

async function relay(server: McpServer, env: ToolEnv, params: z.infer<typeof PermissionRequest>['params']): Promise<void> {
  const who = await askingSession(env);
  if ('refused' in who) {
    console.warn(`permission request refused (client "${env.conn.clientName.slice(0, 60)}", ${params.tool_name.slice(0, 60)}): ${who.refused}; its terminal still asks.`);
    return;
  }
  const answer = await env.services.approvals.ask({
    owner: env.conn.id,
    source: 'channel',
    room_id: who.room_id,
    session_id: who.session_id,
    request_id: params.request_id,
    agent_name: who.display_name,
    tool: params.tool_name,
    description: params.description,
    input_preview: params.input_preview,
  });
  if (answer.by !== 'person' || env.conn.closed) return;
  await server.server.notification({
    method: 'notifications/claude/channel/permission',
    params: { request_id: params.request_id, behavior: answer.behavior },
  });
}

/**
 * The registered agent session this connection holds (its worker's binding, not ended), whose
 * client takes channel pushes; or why the request is refused.
 */
async function askingSession(env: ToolEnv): Promise<SessionRow | { refused: string }> {
  const sessions: SessionRow[] = [];
  for (const key of env.conn.tokens.keys()) {
    if (!env.services.bindings.holds(env.conn, key)) continue;
    const { place, id } = splitPlaceKey(key);
    const storage = await storageIn(env.services.places, place);
    const session = await storage.read((q) => getSession(q, id));
    if (session && session.session_kind === 'worker' && session.worker_id && !session.ended_at) sessions.push(session);
  }
  if (sessions.length === 0) return { refused: 'this connection holds no registered agent session (not registered: register_agent_session first)' };
  if (new Set(sessions.map((s) => s.agent_key)).size > 1) return { refused: 'this connection holds the sessions of several agents, so it cannot say which one asks' };
  if (!takesChannelPushes(env.conn.clientName, env.conn.info)) {
    return { refused: 'its client takes no channel pushes (only a Claude Code session loaded as a channel relays permission requests)' };
  }
  // The agent's session in the room the connection is in now, else its first.
  return sessions.find((s) => s.room_id === env.conn.currentRoom) ?? sessions[0];
}
