// Shared pieces of the set-up tests: a temporary HOME, a helper command, and per-tool fixture
// files (with other servers and comments) written the way each tool's format expects.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import type { AgentToolId } from '../../../src/main/setup/agentTools';
import type { HelperCommand } from '../../../src/main/setup/helperCommand';
import { createSetupService, type SetupService } from '../../../src/main/setup/setupService';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

export function tempDir(prefix = 'letagents-setup-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export const HELPER: HelperCommand = { command: '/usr/bin/node', args: ['/opt/letagents/bin/letagents-desktop.js', 'mcp'] };

/** A Linux host with an empty PATH, rooted at a fresh temporary HOME. */
export function linuxSetup(helperCommand: HelperCommand = HELPER, home = tempDir()): { home: string; service: SetupService } {
  return { home, service: createSetupService({ home, platform: 'linux', env: { PATH: '' }, helperCommand }) };
}

export const TOOL_IDS: AgentToolId[] = ['claude-code', 'codex', 'cursor', 'vscode', 'gemini-cli', 'windsurf', 'claude-desktop'];

/** Where each tool's config lives under a Linux HOME (no XDG/CODEX_HOME overrides). */
export const LINUX_PATHS: Record<AgentToolId, string> = {
  'claude-code': '.claude.json',
  codex: '.codex/config.toml',
  cursor: '.cursor/mcp.json',
  vscode: '.config/Code/User/mcp.json',
  'gemini-cli': '.gemini/settings.json',
  windsurf: '.codeium/windsurf/mcp_config.json',
  'claude-desktop': '.config/Claude/claude_desktop_config.json',
};

export const SERVERS_KEY: Record<AgentToolId, string> = {
  'claude-code': 'mcpServers',
  codex: 'mcp_servers',
  cursor: 'mcpServers',
  vscode: 'servers',
  'gemini-cli': 'mcpServers',
  windsurf: 'mcpServers',
  'claude-desktop': 'mcpServers',
};

export const WITH_STDIO_TYPE: Record<AgentToolId, boolean> = {
  'claude-code': true,
  codex: false,
  cursor: false,
  vscode: true,
  'gemini-cli': false,
  windsurf: false,
  'claude-desktop': false,
};

/** A config a person already has: settings, another server, comments (one trailing a line). */
export function existingConfig(id: AgentToolId): string {
  if (id === 'codex') {
    return [
      '# Codex settings, written by hand',
      'model = "o3" # the default model',
      '',
      '[mcp_servers.other]',
      '# their own server',
      'command = "other-mcp"',
      'args = ["--flag"]',
      '',
      '# fast profile',
      '[profiles.fast]',
      'model = "o4-mini"',
      '',
    ].join('\n');
  }
  return [
    '{',
    '  // settings the person wrote',
    '  "theme": "dark",',
    `  "${SERVERS_KEY[id]}": {`,
    '    // a server they use',
    '    "other": { "command": "other-mcp", "args": ["--flag"] } // keep me',
    '  },',
    '  "zeta": [1, 2, 3]',
    '}',
    '',
  ].join('\n');
}

/** The same config after Connect: our entry added after theirs, nothing else touched. */
export function existingConfigConnected(id: AgentToolId, helper: HelperCommand = HELPER): string {
  if (id === 'codex') {
    return existingConfig(id) + ['', '[mcp_servers.letagents]', `command = ${JSON.stringify(helper.command)}`, `args = [ ${helper.args.map((a) => JSON.stringify(a)).join(', ')} ]`, ''].join('\n');
  }
  const entry = JSON.stringify({ ...(WITH_STDIO_TYPE[id] ? { type: 'stdio' } : {}), command: helper.command, args: helper.args }, null, 2)
    .split('\n')
    .join('\n    ');
  return [
    '{',
    '  // settings the person wrote',
    '  "theme": "dark",',
    `  "${SERVERS_KEY[id]}": {`,
    '    // a server they use',
    '    "other": { "command": "other-mcp", "args": ["--flag"] }, // keep me',
    `    "letagents": ${entry}`,
    '  },',
    '  "zeta": [1, 2, 3]',
    '}',
    '',
  ].join('\n');
}

/** A broken config of the tool's format and the exact problem LetAgents reports for it. */
export function malformedConfig(id: AgentToolId): { text: string; problem: string } {
  if (id === 'codex') return { text: 'model = "o3"\n[mcp_servers.other\ncommand = "x"\n', problem: 'illegal character in key at line 2, column 19' };
  return { text: '{\n  "mcpServers": {\n    "other": { "command": "x" }\n', problem: 'close brace expected at line 4, column 1' };
}

export function writeFile(file: string, text: string, mode?: number): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text, mode === undefined ? undefined : { mode });
}

export const read = (file: string) => readFileSync(file, 'utf8');

/** Every file under `dir`, recursively, with its text. */
export function allFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) allFiles(file).forEach((text, f) => files.set(f, text));
    else files.set(file, read(file));
  }
  return files;
}
