// MCP logging (the `logging` capability): each connection keeps the level its client set
// with logging/setLevel (default "info"), and tools send short notes such as
// "woke on msg_12" as notifications/message tied to the call.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { LoggingLevelSchema, SetLevelRequestSchema, type LoggingLevel, type ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectionState } from './connectionState';

export const LOGGER = 'letagents';
const SEVERITY = LoggingLevelSchema.options;

/** Replaces the SDK's setLevel handler so the level lives with the connection. */
export function registerLogging(server: McpServer, conn: ConnectionState): void {
  server.server.setRequestHandler(SetLevelRequestSchema, (request) => {
    conn.logLevel = request.params.level;
    return {};
  });
}

export function passesLevel(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return SEVERITY.indexOf(level) >= SEVERITY.indexOf(threshold);
}

/** A notifications/message for `message`, or null when the connection's level filters it out. */
export function logNotification(conn: ConnectionState, level: LoggingLevel, message: string): ServerNotification | null {
  if (!passesLevel(level, conn.logLevel)) return null;
  return { method: 'notifications/message', params: { level, logger: LOGGER, data: message } };
}
