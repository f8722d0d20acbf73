// The agent tools LetAgents can connect: where each keeps its MCP config per OS, how it is
// detected, and the shape of the "letagents" entry it expects. Paths only; no file access here.
import path from 'node:path';

export const SERVER_NAME = 'letagents';

export type AgentToolId =
  | 'claude-code'
  | 'codex'
  | 'cursor'
  | 'vscode'
  | 'gemini-cli'
  | 'windsurf'
  | 'claude-desktop';

/** JSON (comments allowed) with servers under `serversKey`, or Codex's TOML `[mcp_servers.<name>]`. */
export type ConfigFormat =
  | { kind: 'json'; serversKey: 'mcpServers' | 'servers'; withStdioType: boolean }
  | { kind: 'toml'; serversKey: 'mcp_servers' };

export interface AgentTool {
  id: AgentToolId;
  name: string;
  configPath: string;
  format: ConfigFormat;
  /** Any of these existing means the tool is installed (config folder, state file or app bundle). */
  markers: string[];
  /** Any of these on PATH means the tool is installed. */
  commands: string[];
  /** Where the format and location were checked. */
  source: string;
  /** Claude Code: its user settings, where Connect may allow LetAgents' tools (allowRule.ts). */
  allowSettingsPath?: string;
}

export interface HostContext {
  home: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

/** The folders an OS keeps per-user app data in (what Electron calls appData). */
function appDataDir({ home, platform, env }: HostContext): string {
  const p = pathFor(platform);
  if (platform === 'darwin') return p.join(home, 'Library', 'Application Support');
  if (platform === 'win32') return env.APPDATA || p.join(home, 'AppData', 'Roaming');
  return env.XDG_CONFIG_HOME || p.join(home, '.config');
}

/** Windows paths are built with win32 rules even when tests run on Linux, and vice versa. */
export function pathFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

function macApps(ctx: HostContext, bundle: string): string[] {
  if (ctx.platform !== 'darwin') return [];
  const p = pathFor(ctx.platform);
  return [p.join('/Applications', bundle), p.join(ctx.home, 'Applications', bundle)];
}

/** Every supported tool for this host, in the order the Connect agents screen shows them. */
export function agentTools(ctx: HostContext): AgentTool[] {
  const p = pathFor(ctx.platform);
  const { home } = ctx;
  const appData = appDataDir(ctx);
  const codexHome = ctx.env.CODEX_HOME || p.join(home, '.codex');
  const windsurfDir = p.join(home, '.codeium', 'windsurf');
  const codeDir = p.join(appData, 'Code');
  const claudeDesktopDir = p.join(appData, 'Claude');
  return [
    // Claude Code, user scope: top-level "mcpServers" in ~/.claude.json, stdio entries carry
    // "type": "stdio" (what `claude mcp add --scope user` writes).
    // Source: https://code.claude.com/docs/en/mcp
    {
      id: 'claude-code',
      name: 'Claude Code',
      configPath: p.join(home, '.claude.json'),
      format: { kind: 'json', serversKey: 'mcpServers', withStdioType: true },
      markers: [p.join(home, '.claude'), p.join(home, '.claude.json')],
      commands: ['claude'],
      source: 'https://code.claude.com/docs/en/mcp',
      // User settings, "permissions.allow". Source: https://code.claude.com/docs/en/settings
      allowSettingsPath: p.join(home, '.claude', 'settings.json'),
    },
    // Codex (CLI and IDE extension share it): [mcp_servers.<name>] with command/args in
    // $CODEX_HOME/config.toml, CODEX_HOME defaulting to ~/.codex.
    // Source: https://developers.openai.com/codex/mcp
    {
      id: 'codex',
      name: 'Codex',
      configPath: p.join(codexHome, 'config.toml'),
      format: { kind: 'toml', serversKey: 'mcp_servers' },
      markers: [codexHome],
      commands: ['codex'],
      source: 'https://developers.openai.com/codex/mcp',
    },
    // Cursor, global scope: ~/.cursor/mcp.json, "mcpServers" with command/args.
    // Source: https://cursor.com/docs/mcp
    {
      id: 'cursor',
      name: 'Cursor',
      configPath: p.join(home, '.cursor', 'mcp.json'),
      format: { kind: 'json', serversKey: 'mcpServers', withStdioType: false },
      markers: [p.join(home, '.cursor'), ...macApps(ctx, 'Cursor.app')],
      commands: ['cursor'],
      source: 'https://cursor.com/docs/mcp',
    },
    // VS Code user profile mcp.json (JSON with comments): top-level "servers", stdio entries
    // need "type": "stdio". The profile lives in Code/User under the OS app-data folder.
    // Source: https://code.visualstudio.com/docs/copilot/reference/mcp-configuration
    {
      id: 'vscode',
      name: 'VS Code',
      configPath: p.join(codeDir, 'User', 'mcp.json'),
      format: { kind: 'json', serversKey: 'servers', withStdioType: true },
      markers: [codeDir, ...macApps(ctx, 'Visual Studio Code.app')],
      commands: ['code'],
      source: 'https://code.visualstudio.com/docs/copilot/reference/mcp-configuration',
    },
    // Gemini CLI user settings: ~/.gemini/settings.json, "mcpServers" with command/args.
    // Source: https://geminicli.com/docs/tools/mcp-server/
    {
      id: 'gemini-cli',
      name: 'Gemini CLI',
      configPath: p.join(home, '.gemini', 'settings.json'),
      format: { kind: 'json', serversKey: 'mcpServers', withStdioType: false },
      markers: [p.join(home, '.gemini')],
      commands: ['gemini'],
      source: 'https://geminicli.com/docs/tools/mcp-server/',
    },
    // Windsurf (Cascade): ~/.codeium/windsurf/mcp_config.json, Claude Desktop's schema.
    // Source: https://docs.windsurf.com/windsurf/cascade/mcp
    {
      id: 'windsurf',
      name: 'Windsurf',
      configPath: p.join(windsurfDir, 'mcp_config.json'),
      format: { kind: 'json', serversKey: 'mcpServers', withStdioType: false },
      markers: [windsurfDir, ...macApps(ctx, 'Windsurf.app')],
      commands: ['windsurf'],
      source: 'https://docs.windsurf.com/windsurf/cascade/mcp',
    },
    // Claude Desktop: claude_desktop_config.json in its app-data folder (macOS Application
    // Support/Claude, Windows %APPDATA%\Claude, Linux ~/.config/Claude), "mcpServers".
    // Source: https://modelcontextprotocol.io/quickstart/user
    {
      id: 'claude-desktop',
      name: 'Claude Desktop',
      configPath: p.join(claudeDesktopDir, 'claude_desktop_config.json'),
      format: { kind: 'json', serversKey: 'mcpServers', withStdioType: false },
      markers: [claudeDesktopDir, ...macApps(ctx, 'Claude.app')],
      commands: [],
      source: 'https://modelcontextprotocol.io/quickstart/user',
    },
  ];
}
