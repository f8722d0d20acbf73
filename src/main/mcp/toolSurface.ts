// tools/list and tools/call for the tool definitions, on the low-level server: the list is
// built once per profile in its compact JSON form (no `$schema`, portable nullables),
// arguments are checked with the tools' zod schemas (the SDK's wording), and a call to
// an upstream name this app does not offer gets an explanation instead of "not found".
// Every result is charged to the token meter.
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { LOCAL_PLACE } from '../store/places';
import { APPROVAL_TOOL, APPROVAL_TOOL_LISTING, callApprovalTool } from './approvalTool';
import { callEnv } from './callScope';
import type { ToolProfile } from './connection';
import { inputJsonSchema } from './jsonSchema';
import { logNotification } from './logging';
import { placeKey } from '../domain/placeKeys';
import { failureResult, hardFailure, jsonResult } from './results';
import type { CallScope, ToolEnv } from './services';
import type { ToolCallContext, ToolDefinition, ToolShape } from './toolKit';
import { upstreamAnswer } from './upstreamTools';
import { noteCodexThread } from './codexQueue';
import type { IncomingWrite } from '../events/incomingWrites';
import { hopTrace } from '../../shared-node/hopTrace';

type AnyTool = ToolDefinition<ToolShape>;

/** The bench's per-hop timestamps (LETAGENTS_HOP_TRACE); null, and free, otherwise. */
const hops = hopTrace('app');

export class ToolSurface {
  private readonly byName = new Map<string, { tool: AnyTool; schema: z.ZodObject<ToolShape> }>();
  private readonly listings = new Map<ToolProfile, Tool[]>();

  constructor(tools: readonly AnyTool[], profiles: Record<ToolProfile, readonly string[] | 'all'>) {
    for (const tool of tools) this.byName.set(tool.name, { tool, schema: z.object(tool.input) });
    for (const [profile, names] of Object.entries(profiles) as Array<[ToolProfile, readonly string[] | 'all']>) {
      const listed = names === 'all' ? tools : names.map((name) => this.byName.get(name)!.tool);
      this.listings.set(profile, listed.map(listingOf));
    }
  }

  /** The tools/list entries of a profile. */
  list(profile: ToolProfile): Tool[] {
    return this.listings.get(profile)!;
  }

  /**
   * Installs the handlers on one connection's server. The profile only shortens the list:
   * a tool left out of it still answers when called by name.
   */
  install(server: McpServer, env: ToolEnv, profile: ToolProfile): void {
    // The permission prompt is listed on a managed "Ask me" turn's connection only.
    const asks = Boolean(env.conn.info.turnKey);
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: asks ? [...this.list(profile), APPROVAL_TOOL_LISTING] : this.list(profile) }));
    server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const { name, arguments: args } = request.params;
      if (name === APPROVAL_TOOL) return callApprovalTool(env, args);
      const entry = this.byName.get(name);
      if (!entry) return upstreamAnswer(name) ?? hardFailure(`Unknown tool: ${name}. This server's tools are listed by tools/list.`);
      if (hops) hops.mark('app.call', `${env.conn.id}:${extra.requestId}`);
      noteCodexThread(env.conn, extra._meta);
      // From here until it ends, a woken wait in its room knows more of a burst may be on its way.
      const incoming = writesRooms(entry.tool) ? env.services.bus.incoming.begin() : null;
      try {
        const parsed = await entry.schema.safeParseAsync(args ?? {});
        if (!parsed.success) return hardFailure(`Input validation error: Invalid arguments for tool ${name}: ${issuesText(parsed.error)}`);
        const call: ToolCallContext = {
          requestId: extra.requestId,
          signal: extra.signal,
          progressToken: extra._meta?.progressToken,
          notify: (notification) => extra.sendNotification(notification),
          log: (level, message) => {
            const note = logNotification(env.conn, level, message);
            if (note) void extra.sendNotification(note).catch(() => undefined);
          },
        };
        return await runTool(entry.tool, parsed.data, env, call, incoming);
      } finally {
        incoming?.end();
      }
    });
  }
}

/**
 * A tool that may post to a room: it writes (not read-only) and only to this app's places (the
 * GitHub sign-in pair talks to GitHub for seconds and posts nothing).
 */
const writesRooms = (tool: AnyTool) => tool.annotations.readOnlyHint !== true && tool.annotations.openWorldHint === false;

async function runTool(tool: AnyTool, args: Record<string, unknown>, env: ToolEnv, call: ToolCallContext, incoming: IncomingWrite | null): Promise<CallToolResult> {
  const scoped = callEnv(env, incoming);
  let result: CallToolResult;
  try {
    await env.ready;
    // A call whose connection was closed (e.g. past a limit of connectionLimits.ts) before it started does no work.
    result = call.signal.aborted ? failureResult(new Error('The connection closed before this call started.')) : jsonResult(await tool.run(args as never, scoped, call));
  } catch (error) {
    result = failureResult(error);
  }
  meter(env, result, scoped.scope);
  return result;
}

/**
 * The token meter (issue 14): every result is charged, in UTF-8 bytes of its text (what enters
 * the agent's context), to the room and session the call resolved, or that the result names
 * (a registration). A call that resolved no room is charged to none.
 */
function meter(env: ToolEnv, result: CallToolResult, scope: CallScope): void {
  const named = result.structuredContent as { room_id?: unknown; place?: unknown; agent_session?: { room_id?: unknown; session_id?: unknown } } | undefined;
  const roomId = scope.roomId ?? stringOrNull(named?.room_id) ?? stringOrNull(named?.agent_session?.room_id);
  if (roomId === null) return;
  // A room result (join_room, create_room) names its place; a registration noted it.
  const place = scope.place ?? stringOrNull(named?.place) ?? LOCAL_PLACE;
  const sessionId = scope.sessionId ?? stringOrNull(named?.agent_session?.session_id);
  // A registration is a call too (the other calls noted theirs as they resolved the session).
  if (scope.sessionId === null && sessionId !== null) env.services.delivery.reachability.called(placeKey(place, sessionId));
  let bytes = 0;
  for (const item of result.content) if (item.type === 'text') bytes += Buffer.byteLength(item.text, 'utf8');
  env.services.delivery.meter.add({ place, roomId }, sessionId, bytes);
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function listingOf(tool: AnyTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool.input) as Tool['inputSchema'],
    outputSchema: tool.output as Tool['outputSchema'],
    annotations: tool.annotations,
  };
}

/** The SDK's wording for schema violations: "<message> at <path>", one per issue. */
function issuesText(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.message} at ${issue.path.map(String).join('.')}`))
    .join('\n');
}
