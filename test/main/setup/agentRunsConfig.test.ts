import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDevHelperCommand, type HelperCommand } from '../../../src/main/setup/helperCommand';
import { createSetupService } from '../../../src/main/setup/setupService';
import { cleanupSpawned, ensureCliBuilt, startServe, trackPid, type ServeHandle } from '../../support';
import { LINUX_PATHS, read, SERVERS_KEY, tempDir, TOOL_IDS } from './setupFixtures';

let serve: ServeHandle;
beforeAll(async () => {
  await ensureCliBuilt();
  serve = await startServe();
});
afterAll(cleanupSpawned);

/** What the tool would read back from its own file: the command and args of our entry. */
function writtenCommand(id: (typeof TOOL_IDS)[number], text: string): HelperCommand {
  const doc = (id === 'codex' ? parse(text) : JSON.parse(text)) as Record<string, Record<string, HelperCommand>>;
  const { command, args } = doc[SERVERS_KEY[id]].letagents;
  return { command, args };
}

describe('an agent tool running the command LetAgents wrote into its config', () => {
  it.each(TOOL_IDS)('%s gets a working MCP session through the helper', async (id) => {
    const home = tempDir();
    const service = createSetupService({ home, platform: 'linux', env: {}, helperCommand: resolveDevHelperCommand({ dataDir: serve.dataDir }) });
    await service.connect(id);
    const { command, args } = writtenCommand(id, read(join(home, LINUX_PATHS[id])));

    // As the tool does it: spawn exactly that command, with the tool's own environment (no token).
    const transport = new StdioClientTransport({ command, args, cwd: tempDir(), stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: `${id}-as-agent`, version: '1.0.0' });
    try {
      await client.connect(transport);
      if (transport.pid) trackPid(transport.pid);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('get_current_room');
      const result = await client.callTool({ name: 'get_current_room', arguments: {} });
      const [content] = result.content as { type: string; text: string }[];
      expect(JSON.parse(content.text)).toMatchObject({ connected: false, message: 'Not currently in any room' });
    } catch (error) {
      throw new Error(`${(error as Error).message}\nhelper stderr:\n${stderr}`);
    } finally {
      await client.close();
    }
  });
});
