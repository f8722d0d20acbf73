// The channel permission relay (issue 26): an interactive Claude Code session that loaded our
// server as a channel sends `notifications/claude/channel/permission_request` when it would ask
// the person at its terminal; the request becomes the same kind of "Needs you" item as a managed
// turn's ("Allow" and "Deny" only: the protocol has no "for this turn"), and the person's answer
// goes back as `notifications/claude/channel/permission`. The terminal's dialog stays open: the
// first answer wins and Claude Code drops the other (it does not tell us when the terminal
// answered). The item closes when the session disconnects; the time limit closes it without
// answering, so the terminal keeps its own dialog. The person's answer counts as delivered once
// the notification was written to the session (issue 37); if it could not be, the item opens again.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { getSession } from '../domain/sessions/sessions';
import { splitPlaceKey } from '../domain/placeKeys';
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
  // A session in no room has nowhere to show the item: its terminal still asks.
  if (!who) return;
  await env.services.approvals.ask({
    owner: env.conn.id,
    source: 'channel',
    room_id: who.roomId,
    session_id: who.sessionId,
    request_id: params.request_id,
    agent_name: who.name,
    tool: params.tool_name,
    description: params.description,
    input_preview: params.input_preview,
  }, null, async (answer) => {
    // The time limit and the end of the session leave the terminal's own dialog to it.
    if (answer.by !== 'person') return;
    if (env.conn.closed) throw new Error('its session disconnected');
    await server.server.notification({
      method: 'notifications/claude/channel/permission',
      params: { request_id: params.request_id, behavior: answer.behavior },
    });
  });
}

/** The agent session this connection acts as (its bound worker, else its current room's session). */
async function askingSession(env: ToolEnv): Promise<{ roomId: string; sessionId: string | null; name: string } | null> {
  const { store } = env.services;
  for (const key of env.conn.tokens.keys()) {
    const { id } = splitPlaceKey(key);
    const session = await store.read((q) => getSession(q, id));
    if (session && !session.ended_at) return { roomId: session.room_id, sessionId: session.session_id, name: session.display_name };
  }
  const room = env.conn.currentRoom;
  return room ? { roomId: room, sessionId: null, name: env.conn.clientName || 'An agent' } : null;
}
