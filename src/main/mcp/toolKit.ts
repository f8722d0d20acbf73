// Registering a tool: zod input with a description on every field, annotations, the
// worker_id facade on every room tool (mcp-tools.md §2.3), and one place that turns
// results and errors into MCP results.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { errors } from '../domain/errors';
import { isWorkerIdShape } from '../domain/identity/agentKeys';
import { getWorker } from '../domain/sessions/workers';
import { failureResult, jsonResult } from './results';
import type { ToolEnv } from './services';

export const WORKER_ID_DESCRIPTION =
  'Stable handle returned by register_agent_session for this chat. Pass it on every room tool call.';

/** room_id + worker_id (+ agent_session_id) added to every room-scoped tool. */
export const roomFacade = {
  room_id: z.string().optional().describe('Room id. Defaults to the current room (or the worker\'s room with worker_id).'),
  worker_id: z.string().optional().describe(WORKER_ID_DESCRIPTION),
};
export const sessionFacade = {
  ...roomFacade,
  agent_session_id: z.string().optional().describe('Legacy session id from register_agent_session; prefer worker_id.'),
};

/**
 * The facade on tools that take worker_id but act as no worker (resume_room_session,
 * the device-auth tools): a forged or malformed handle still gets W7, never silence.
 */
export function checkWorkerFacade(env: ToolEnv, workerId: string | undefined): void {
  if (workerId === undefined) return;
  if (!isWorkerIdShape(workerId) || !getWorker(env.services.store.db, workerId)) throw errors.W7();
}

/** Fields other LetAgents servers take and this one accepts and ignores. */
export const ignoredFields = {
  conversation_id: z.string().optional().describe('Accepted for compatibility and ignored.'),
  sender: z.string().optional().describe('Accepted for compatibility and ignored: the sender is the session\'s actor label.'),
};

export type ToolShape = z.ZodRawShape;

/** What a running call knows besides its arguments: the client may cancel it. */
export interface ToolCallContext {
  readonly signal: AbortSignal;
}

export interface ToolDefinition<S extends ToolShape> {
  readonly name: string;
  readonly description: string;
  readonly input: S;
  readonly annotations: ToolAnnotations;
  run(args: z.infer<z.ZodObject<S>>, env: ToolEnv, call: ToolCallContext): Promise<unknown> | unknown;
}

export function defineTool<S extends ToolShape>(definition: ToolDefinition<S>): ToolDefinition<S> {
  return definition;
}

export const readOnly: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
export const additive: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
export const changing: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, openWorldHint: false };
export const idempotentWrite: ToolAnnotations = { ...additive, idempotentHint: true };

export function registerTools(server: McpServer, env: ToolEnv, definitions: readonly ToolDefinition<ToolShape>[]): void {
  for (const definition of definitions) {
    server.registerTool(
      definition.name,
      { description: definition.description, inputSchema: definition.input, annotations: definition.annotations },
      async (args: Record<string, unknown>, extra: { signal: AbortSignal }) => {
        try {
          await env.ready;
          // A call whose connection was closed (e.g. past a limit) before it started does no work.
          if (extra.signal.aborted) return failureResult(new Error('The connection closed before this call started.'));
          return jsonResult(await definition.run(args as never, env, { signal: extra.signal }));
        } catch (error) {
          return failureResult(error);
        }
      },
    );
  }
}
