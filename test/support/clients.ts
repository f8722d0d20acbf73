// MCP clients for tests, as agents connect: through a real `letagents-desktop mcp`
// helper process (stdio), or over Streamable HTTP with the bearer token.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { agentProcessScript } from '../../bench/lib/processes';
import { CLAUDE_CHANNEL_COMMAND } from '../../src/shared/model/workers';
import { cliBin, repoRoot } from './cli';
import { trackPid } from './processes';

/** Claude Code's channel flags (agentFlags), as the app tells people to start it: its helper then takes channel pushes. */
export const CLAUDE_CHANNEL_FLAGS: readonly string[] = CLAUDE_CHANNEL_COMMAND.split(' ').slice(1);

/** An SDK Client talking through a helper process; also exposes the helper's stderr and pid. */
export class HelperClient extends Client {
  stderrText = '';
  helperPid: number | null = null;

  /** The pid of an app the helper started in the background (from its stderr), if any. */
  get startedAppPid(): number | null {
    const match = /started the LetAgents app in the background \(pid (\d+)/.exec(this.stderrText);
    return match ? Number(match[1]) : null;
  }

  /** Every app the helper started: at first, and again after the app went away. */
  get startedAppPids(): number[] {
    return [...this.stderrText.matchAll(/started (?:the LetAgents app|it again) in the background \(pid (\d+)/g)].map((m) => Number(m[1]));
  }
}

export interface HelperOptions {
  /** The agent's working directory (the helper's cwd). */
  readonly cwd?: string;
  readonly ide?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly clientName?: string;
  /** `--tools`: the tool profile the helper asks for. */
  readonly tools?: string;
  /**
   * The helper's parent stands in for an agent started with these flags (agentProcess.mjs),
   * e.g. Claude Code's channel flag, which the helper looks for in its parent's command line.
   */
  readonly agentFlags?: readonly string[];
}

/** Spawns `letagents-desktop mcp --data-dir <dataDir>` and connects an SDK client (initialize done). */
export async function connectHelper(dataDir: string, options: HelperOptions = {}): Promise<HelperClient> {
  const helperArgs = [cliBin, 'mcp', '--data-dir', dataDir, ...(options.ide ? ['--ide', options.ide] : []), ...(options.tools ? ['--tools', options.tools] : [])];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: options.agentFlags ? [agentProcessScript, ...options.agentFlags, '--', process.execPath, ...helperArgs] : helperArgs,
    cwd: options.cwd ?? repoRoot,
    env: { ...(process.env as Record<string, string>), ...(options.env as Record<string, string> | undefined) },
    stderr: 'pipe',
  });
  const client = new HelperClient({ name: options.clientName ?? 'letagents-test', version: '1.0.0' });
  transport.stderr?.on('data', (d: Buffer) => {
    client.stderrText += d.toString();
    for (const pid of client.startedAppPids) trackPid(pid);
  });
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close().catch(() => undefined);
    throw new Error(`${(error as Error).message}\nhelper stderr:\n${client.stderrText}`);
  }
  client.helperPid = transport.pid;
  if (client.helperPid) trackPid(client.helperPid);
  return client;
}

/** Connects an SDK client to /mcp with `Authorization: Bearer <token>`. */
export async function connectHttp(mcpUrl: string, token: string, options: { clientName?: string } = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: options.clientName ?? 'letagents-test-http', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** The text of a tool result's first content item (our tools return one JSON text item). */
export function toolText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content;
  if (!content?.[0] || content[0].type !== 'text') throw new Error(`Not a text tool result: ${JSON.stringify(result)}`);
  return content[0].text!;
}

/** The parsed JSON document of a tool result. */
export const toolJson = (result: unknown): unknown => JSON.parse(toolText(result));
