// What the gateway tells the MCP layer about one agent connection, and what the MCP
// layer gives back: an McpServer per connection (mcp-tools.md §2.2).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolProfileName } from '../../shared-node/protocol';

/** Which tools tools/list shows: all of them, or the compact chat set (rooms, messages, wait, tasks). */
export type ToolProfile = ToolProfileName;

export interface ConnectionInfo {
  /** Unique for the app's lifetime, e.g. "c17". */
  readonly id: string;
  readonly transport: 'socket' | 'http';
  /** The agent's working directory, from the helper's hello (socket) or null (HTTP). */
  readonly cwd: string | null;
  /** The helper's --ide flag or LETAGENTS_AGENT_IDE, if given. */
  readonly ideHint: string | null;
  /** `mcp --tools core` (helper hello) or `/mcp?tools=core`; default full. */
  readonly toolProfile?: ToolProfile;
  /** The helper's turn key (a managed "Ask me" turn's connection); null or absent otherwise. */
  readonly turnKey?: string | null;
  /** Socket only: whether the agent was started with Claude Code's channel flag (the helper looks); null: unknown. */
  readonly channelFlag?: boolean | null;
  /** Socket only: the stdio helper's process id, from its hello (codexThread.ts looks at the processes that started it). */
  readonly helperPid?: number | null;
}

export interface McpConnectionHandler {
  /** Builds the server for a new connection; the gateway connects it to the transport. */
  open(connection: ConnectionInfo): McpServer;
  /** Called once when the connection's transport closed (helper exit, socket drop, HTTP session end). */
  closed(connectionId: string): void;
  /** Marks HTTP activity, for presence ("online" needs a request within 90 s). */
  touched?(connectionId: string): void;
}
