// Defining a tool: zod input, a compact output schema, a title and truthful annotations,
// the worker_id facade on every room tool (mcp-tools.md §2.3) and the fields the letagents
// server takes that this one ignores. toolSurface.ts lists and runs the definitions.
//
// Listing budget (every agent carries tools/list in its context on every turn): a field is
// described only where its name, type, enum, default and bounds do not say what to pass;
// what every room tool shares is said once, in the server instructions (instructions.ts).
import { z } from 'zod';
import type { LoggingLevel, ServerNotification, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { errors } from '../domain/errors';
import { isWorkerIdShape } from '../domain/identity/agentKeys';
import { getWorker } from '../domain/sessions/workers';
import { unlisted, type JsonSchema } from './jsonSchema';
import type { ToolEnv } from './services';

/**
 * room_id + worker_id, on every room-scoped tool: room_id defaults to the current room (with
 * worker_id, the worker's). The instructions and register_agent_session explain both once.
 */
export const roomFacade = {
  room_id: z.string().optional(),
  worker_id: z.string().optional(),
};
/** …and the legacy session id, on every tool that acts as a session: accepted, named in the instructions, not listed. */
export const sessionFacade = {
  ...roomFacade,
  agent_session_id: unlisted(z.string().optional()),
};
/** The facade on tools that act as no worker but still check a handle they are given. */
export const workerFacade = { worker_id: z.string().optional() };

/**
 * The facade on tools that take worker_id but act as no worker (resume_room_session,
 * the device-auth tools): a forged or malformed handle still gets W7, never silence.
 */
export async function checkWorkerFacade(env: ToolEnv, id: string | undefined): Promise<void> {
  if (id === undefined) return;
  if (!isWorkerIdShape(id)) throw errors.W7();
  for (const storage of await env.services.places.reachable()) if (await storage.read((q) => getWorker(q, id))) return;
  throw errors.W7();
}

/**
 * A field the letagents server takes: any value accepted, never used. Not listed (on up to nine
 * tools of each list it cost every agent context for nothing): the server instructions name
 * these fields once as accepted and ignored.
 */
export const ignored = () => unlisted(z.unknown().optional());
/** Sent by upstream agents with every task write (board manager approval): accepted and ignored. */
export const taskCompatFields = { conversation_id: ignored(), board_intent_id: ignored(), board_approval_token: ignored() };

export type ToolShape = z.ZodRawShape;

/** What a running call knows besides its arguments. */
export interface ToolCallContext {
  /** The call's JSON-RPC id (the bench's hop trace names the call by it). */
  readonly requestId: string | number;
  /** The client cancelled the call. */
  readonly signal: AbortSignal;
  /** The client's progress token, when it asked for progress notifications. */
  readonly progressToken?: string | number;
  /** Sends a notification that belongs to this call (over HTTP: on its response stream). */
  notify(notification: ServerNotification): Promise<void>;
  /** A note for the client's log, sent when its logging level lets `level` through. */
  log(level: LoggingLevel, message: string): void;
}

export interface ToolDefinition<S extends ToolShape> {
  readonly name: string;
  /** A short human title (clients show it instead of the name). */
  readonly title: string;
  readonly description: string;
  readonly input: S;
  /** JSON Schema of the structured result (outputSchemas.ts); soft failures must fit it too. */
  readonly output: JsonSchema;
  readonly annotations: ToolAnnotations;
  run(args: z.infer<z.ZodObject<S>>, env: ToolEnv, call: ToolCallContext): Promise<unknown> | unknown;
}

export function defineTool<S extends ToolShape>(definition: ToolDefinition<S>): ToolDefinition<S> {
  return definition;
}

// Annotations state only what differs from the MCP defaults (readOnlyHint false,
// destructiveHint true, idempotentHint false, openWorldHint true): every tool but the
// GitHub sign-in pair works on this app's places only (this computer and its teams' databases).
export const readOnly: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };
/** Adds something; never overwrites or removes. */
export const additive: ToolAnnotations = { destructiveHint: false, openWorldHint: false };
/** Adds nothing new when repeated with the same arguments. */
export const idempotentWrite: ToolAnnotations = { ...additive, idempotentHint: true };
/** Changes or ends something that exists. */
export const changing: ToolAnnotations = { openWorldHint: false };
/** Changes something, and a repeat with the same arguments changes nothing more. */
export const idempotentChange: ToolAnnotations = { ...changing, idempotentHint: true };
