// An independent client: the MCP Inspector CLI (@modelcontextprotocol/inspector --cli)
// runs the stdio helper itself against a running serve, lists the tools (and checks their
// schemas' portability with --strict) and calls send_message; the message is then read
// back with the SDK client.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, cliBin, repoRoot, tempDir, track, type ServeHandle } from '../../support';
import { connectAgent, startApp, type Agent } from './harness';
import type { PlacedApp } from '../../support/place';
import { allTools } from '../../../src/main/mcp/tools';

const INSPECTOR_DIR = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'inspector');
const inspectorBin = () => {
  const pkg = JSON.parse(readFileSync(join(INSPECTOR_DIR, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
  return { version: pkg.version, entry: join(INSPECTOR_DIR, pkg.bin['mcp-inspector']) };
};

let serve: ServeHandle & PlacedApp;
let reader: Agent;

beforeAll(async () => {
  serve = await startApp();
  reader = await connectAgent(serve);
});

afterAll(async () => {
  await reader?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

/** Runs the inspector CLI once against `letagents-desktop mcp --data-dir <serve's>`; parses its JSON output. */
function inspect(args: string[]): Promise<{ code: number | null; json: any; stderr: string }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const state = tempDir('la-inspector-');
  return new Promise((resolve, reject) => {
    const child = track(
      spawn(process.execPath, [inspectorBin().entry, '--cli', '--format', 'json', ...args, '--', process.execPath, cliBin, 'mcp', '--data-dir', serve.dataDir], {
        cwd: tempDir('la-cwd-'),
        // Its catalog and client config stay in a temp folder, never in the user's home.
        env: { ...process.env, MCP_CATALOG_PATH: join(state, 'mcp.json'), MCP_CLIENT_CONFIG_PATH: join(state, 'client.json') },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => {
      try {
        resolve({ code, json: JSON.parse(stdout), stderr });
      } catch {
        reject(new Error(`inspector printed no JSON (exit ${code}).\nstdout:\n${stdout}\nstderr:\n${stderr}`));
      }
    });
  });
}

describe('the MCP Inspector CLI as an independent client', () => {
  it('is the pinned version', () => {
    expect(inspectorBin().version).toBe('2.12.0');
  });

  it('lists the tools through the stdio helper', async () => {
    const { code, json, stderr } = await inspect(['--method', 'tools/list']);
    expect(code, stderr).toBe(0);
    const names = json.result.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(allTools.map((t) => t.name));
    expect(names).toEqual(expect.arrayContaining(['send_message', 'wait_for_messages', 'register_agent_session', 'get_board', 'start_device_auth']));
    const send = json.result.tools.find((t: { name: string }) => t.name === 'send_message');
    expect(send.inputSchema.required).toEqual(['text']);
    // Annotations state what differs from the MCP defaults: a local write that only adds.
    expect(send.annotations).toEqual({ destructiveHint: false, openWorldHint: false });
  });

  it('finds no portability problem in the tool schemas with --strict', async () => {
    const { code, stderr } = await inspect(['--method', 'tools/list', '--strict']);
    expect(code, stderr).toBe(0);
    // It prints its errors and warnings, and nothing when it finds none: no `type` array anywhere
    // (nullable fields are anyOf with null), and no field that accepts anything (the letagents
    // fields accepted and ignored are not listed).
    expect(stderr).toBe('');
  });

  it('calls send_message, and the message is stored', async () => {
    await reader.call('join_room', { name: 'inspector-room' });
    const { code, json, stderr } = await inspect([
      '--method', 'tools/call', '--tool-name', 'send_message', '--tool-arg', 'room_id=inspector-room', '--tool-arg', 'text=hello from the inspector',
    ]);
    expect(code, stderr).toBe(0);
    expect(json.result.isError ?? false).toBe(false);
    const sent = JSON.parse(json.result.content[0].text);
    expect(sent).toMatchObject({ room_id: 'inspector-room', text: 'hello from the inspector', source: 'agent', kind: 'message' });

    const read = await reader.call('read_messages', { room_id: 'inspector-room' });
    expect(read.messages.at(-1)).toMatchObject({ id: sent.id, text: 'hello from the inspector', sender: sent.sender });
  });

  it('reports a hard error as the tool error it is', async () => {
    const { code, json } = await inspect(['--method', 'tools/call', '--tool-name', 'send_message', '--tool-arg', 'text=nowhere to go']);
    expect(code).not.toBe(0);
    expect(json.result).toEqual({ content: [{ type: 'text', text: 'No room is currently selected. Join a room first or pass room_id.' }], isError: true });
  });
});
