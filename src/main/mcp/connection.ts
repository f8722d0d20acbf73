// What the gateway tells the MCP layer about one agent connection, and what the MCP
// layer gives back: an McpServer per connection (mcp-tools.md §2.2).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export interface ConnectionInfo {
  /** Unique for the app's lifetime, e.g. "c17". */
  readonly id: string;
  readonly transport: 'socket' | 'http';
  /** The agent's working directory, from the helper's hello (socket) or null (HTTP). */
  readonly cwd: string | null;
  /** The helper's --ide flag or LETAGENTS_AGENT_IDE, if given. */
  readonly ideHint: string | null;
}

export interface McpConnectionHandler {
  /** Builds the server for a new connection; the gateway connects it to the transport. */
  open(connection: ConnectionInfo): McpServer;
  /** Called once when the connection's transport closed (helper exit, socket drop, HTTP session end). */
  closed(connectionId: string): void;
  /** Marks HTTP activity, for presence ("online" needs a request within 90 s). */
  touched?(connectionId: string): void;
}
