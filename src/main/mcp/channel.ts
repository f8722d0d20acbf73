// The Claude Code channel (issue 26; agent-clis.md §Channels): our MCP server declares the
// experimental `claude/channel` capability and pushes wakes as `notifications/claude/channel`.
// Claude Code loads a server as a channel only when started with
// `--dangerously-load-development-channels server:<name>` (and its channel gate is open),
// and nothing in the MCP handshake says whether it was: its client capabilities are the same
// either way. So the stdio helper looks for the flag in the command lines of the processes
// that started it (cli/helper/channelFlag.ts) and says so in its hello. A client that names
// itself "claude-code" through the helper gets pushes unless the helper saw no flag (where it
// cannot look, it gets them: an ignored push costs nothing). Channels are stdio only, so
// HTTP clients get none. Claude Code may still ignore a push (offline, its runtime gate
// says "Channels are not currently available"): a push counts as "pushed", never "seen", the
// message is still delivered by the agent's next read, and the wake path calls push working
// only once the agent acted on one (delivery/pushes.ts).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ConnectionInfo } from './connection';
import { pushMeta, pushText, type PushSink } from './sessionPush';

/** Merged into the server's experimental capabilities. */
export const CHANNEL_CAPABILITY = { 'claude/channel': {} } as const;

/** Claude Code's MCP client names itself so in initialize (2.1.x). */
export const CLAUDE_CODE_CLIENT = 'claude-code';

export const CHANNEL_NOTIFICATION = 'notifications/claude/channel';

export function takesChannelPushes(clientName: string, info: ConnectionInfo): boolean {
  return clientName === CLAUDE_CODE_CLIENT && info.transport === 'socket' && info.channelFlag === true;
}

/** Pushes as channel notifications on the connection's MCP server. */
export function channelSink(server: McpServer): PushSink {
  return {
    via: 'channel',
    async send(push) {
      if (!server.isConnected()) return false;
      try {
        // A method outside the SDK's typed list: the notification schema is Claude Code's.
        await server.server.notification({ method: CHANNEL_NOTIFICATION, params: { content: pushText(push.rows, push.turns), meta: pushMeta(push) } } as never);
        return true;
      } catch {
        return false;
      }
    },
  };
}
