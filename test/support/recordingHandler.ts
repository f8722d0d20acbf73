// A small McpConnectionHandler for gateway tests: real McpServers with an `echo` and a
// never-answering `hang` tool, and a record of the open/closed/touched calls.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ConnectionInfo, McpConnectionHandler } from '../../src/main/mcp/connection';

export interface RecordingHandler extends McpConnectionHandler {
  readonly opened: ConnectionInfo[];
  /** The server built for each opened connection, in the same order. */
  readonly servers: McpServer[];
  readonly closedIds: string[];
  readonly touchedIds: string[];
  /** The connections whose `hang` call reached the app (it never answers them). */
  readonly hungIds: string[];
  /** Resolves when closed(id) was called for `id`. */
  whenClosed(id: string): Promise<void>;
}

export function recordingHandler(): RecordingHandler {
  const opened: ConnectionInfo[] = [];
  const servers: McpServer[] = [];
  const closedIds: string[] = [];
  const touchedIds: string[] = [];
  const hungIds: string[] = [];
  const waiters = new Map<string, () => void>();
  return {
    opened,
    servers,
    closedIds,
    touchedIds,
    hungIds,
    open(connection) {
      opened.push(connection);
      const server = new McpServer({ name: 'letagents-test-gateway', version: '0.0.0' });
      server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
        content: [{ type: 'text', text: `${connection.id}:${text}` }],
      }));
      server.registerTool('hang', {}, () => {
        hungIds.push(connection.id);
        return new Promise<never>(() => undefined);
      });
      servers.push(server);
      return server;
    },
    closed(id) {
      closedIds.push(id);
      waiters.get(id)?.();
    },
    touched(id) {
      touchedIds.push(id);
    },
    whenClosed(id) {
      if (closedIds.includes(id)) return Promise.resolve();
      return new Promise((resolve) => waiters.set(id, resolve));
    },
  };
}
