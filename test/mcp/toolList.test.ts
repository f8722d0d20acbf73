// tools/list as agents receive it, through real helpers and /mcp against a real serve: every
// tool of the registry within the context budgets (TOOL_LIST_BUDGETS), each with a title, an
// output schema and portable input schemas (a test names what a tool lacks), truthful
// annotations, the core profile over both transports, and clear errors for an unknown profile.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTools, CORE_TOOLS, TOOL_LIST_BUDGETS } from '../../src/main/mcp/tools';
import { cleanupSpawned, connectHttp, connectHelper, runCli, type ServeHandle } from '../support';
import { probe } from '../support/httpProbe';
import { startApp } from './tools/harness';

const { full: FULL_BUDGET, core: CORE_BUDGET } = TOOL_LIST_BUDGETS;

let serve: ServeHandle;

beforeAll(async () => {
  serve = await startApp();
});

afterAll(async () => {
  await serve?.stop();
  await cleanupSpawned();
});

const size = (tools: Tool[]) => JSON.stringify({ tools }).length;

async function listThroughHelper(tools?: string): Promise<Tool[]> {
  const client = await connectHelper(serve.dataDir, { tools });
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

/** Every schema node of a tool's input, depth first. */
function* nodes(schema: unknown): Generator<Record<string, unknown>> {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const item of schema) yield* nodes(item);
    return;
  }
  yield schema as Record<string, unknown>;
  for (const value of Object.values(schema)) yield* nodes(value);
}

describe('the full tool list', () => {
  it(`lists every tool of the registry within ${FULL_BUDGET} characters, each with a title, a description and an output schema`, async () => {
    const tools = await listThroughHelper();
    expect(tools.map((t) => t.name)).toEqual(allTools.map((t) => t.name));
    expect(size(tools), 'tools/list grew past its budget: share phrasing, or move detail to the instructions').toBeLessThanOrEqual(FULL_BUDGET);
    for (const tool of tools) {
      expect(tool.title, `${tool.name}: give it a short title (clients show it instead of the name)`).toBeTruthy();
      expect(tool.description, `${tool.name}: give it a description`).toBeTruthy();
      expect(tool.outputSchema?.type, `${tool.name}: give it an output schema of type object (outputSchemas.ts); a soft failure {success:false, error, hint} must fit it too`).toBe('object');
      // Only the GitHub sign-in pair reaches beyond this machine (openWorldHint is true by default).
      if (!['start_device_auth', 'poll_device_auth'].includes(tool.name)) {
        expect(tool.annotations?.openWorldHint, `${tool.name}: say what it does with one of toolKit.ts's annotations (readOnly if it only reads, else additive, idempotentWrite, changing or idempotentChange)`).toBe(false);
      }
      // Portable: no `$schema` line, no `type` arrays (nullable is anyOf with null).
      expect(tool.inputSchema, tool.name).not.toHaveProperty('$schema');
      for (const node of nodes(tool.inputSchema)) expect(Array.isArray(node.type), `${tool.name}: ${JSON.stringify(node)}`).toBe(false);
      // Every field of a nested object (an artifact) says what it is.
      for (const field of Object.values((tool.inputSchema.properties ?? {}) as Record<string, unknown>)) {
        for (const node of nodes(field)) {
          const nested = (node.properties ?? {}) as Record<string, { description?: string }>;
          for (const [key, value] of Object.entries(nested)) expect(value.description, `${tool.name}: ${key}`).toBeTruthy();
        }
      }
    }
  });

  it('annotates what each tool does: local reads, additive and idempotent writes, and the GitHub pair as open-world', async () => {
    const byName = new Map((await listThroughHelper()).map((t) => [t.name, t.annotations ?? {}]));
    expect(byName.get('get_board')).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get('send_message')).toEqual({ destructiveHint: false, openWorldHint: false });
    expect(byName.get('remember_room_fact')).toEqual({ destructiveHint: false, openWorldHint: false, idempotentHint: true });
    // It may displace another connection's hold on the worker, and a repeat changes nothing more.
    expect(byName.get('register_agent_session')).toEqual({ openWorldHint: false, idempotentHint: true });
    expect(byName.get('update_task')).toEqual({ openWorldHint: false });
    expect(byName.get('start_device_auth')?.openWorldHint).not.toBe(false);
    expect(byName.get('poll_device_auth')?.openWorldHint).not.toBe(false);
  });

  it('tells agents how long waits work', async () => {
    const wait = (await listThroughHelper()).find((t) => t.name === 'wait_for_messages')!;
    expect(wait.description).toMatch(/Progress every 10 s if asked/);
    expect(wait.description).toMatch(/over 55 s need a client that resets its timeout on progress/);
    expect(wait.inputSchema.properties?.timeout).toMatchObject({ type: 'integer', default: 30_000 });
  });
});

describe('the core profile', () => {
  it(`lists only rooms, messages, wait and tasks through \`mcp --tools core\`, within ${CORE_BUDGET} characters`, async () => {
    const tools = await listThroughHelper('core');
    expect(tools.map((t) => t.name)).toEqual(CORE_TOOLS);
    expect(size(tools)).toBeLessThanOrEqual(CORE_BUDGET);
  });

  it('is the same list over HTTP with /mcp?tools=core, and a tool left out still answers by name', async () => {
    const client = await connectHttp(`${serve.mcpUrl}?tools=core`, serve.token);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(CORE_TOOLS);
    const memory = await client.callTool({ name: 'get_room_memory', arguments: {} });
    expect(memory.structuredContent).toMatchObject({ success: false, error: 'No room_id provided and not currently in a room.' });
    await client.close();
  });

  it('refuses an unknown profile clearly, on both transports', async () => {
    const cli = await runCli(['mcp', '--data-dir', serve.dataDir, '--tools', 'mini'], { input: '' });
    expect(cli.code).toBe(2);
    expect(cli.stderr).toBe('letagents-desktop mcp: --tools must be one of full, core, not "mini".\n');
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
    const headers = { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const answer = await probe(serve.port, { method: 'POST', path: '/mcp?tools=mini', headers, body });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.message).toBe('Bad Request: tools must be one of full, core, not "mini".');
  });
});
