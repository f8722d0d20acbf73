// OpenCode headless (`opencode run --format json`, the prompt on stdin): the command for one
// turn, with a config file that adds our helper and switches off the person's other MCP
// servers' tools, the permissions where no config file outranks them (OPENCODE_PERMISSION is
// merged last), and a refusal to run over the folder's own OpenCode settings; and the parser
// of its JSON events.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { SERVER_NAME } from '../../setup/agentTools';
import { defineProvider, type ActivityEvent, type ProviderLaunch, type StreamParser, type TurnSpec } from '../types';
import { folderSettingsFiles } from './folderSettings';
import { jsonLine, num, preview, previewInput, str } from './streamText';

/**
 * OpenCode's permission settings per choice. Headless, a tool that would ask is refused, so
 * every kind is set explicitly: read-only may read (its read, list, grep and glob tools need
 * no permission); may-edit also edits files. The shell and web fetches stay denied.
 */
const PERMISSION = {
  read_only: { edit: 'deny', bash: 'deny', webfetch: 'deny', external_directory: 'deny' },
  edit: { edit: 'allow', bash: 'deny', webfetch: 'deny', external_directory: 'deny' },
} as const;

/**
 * What OpenCode 1.18.33 reads from a project whatever it is told: from its folder up to the
 * project's root (the filesystem's, outside git) it imports `.opencode/plugin/*.js` and
 * `.opencode/plugins/*.js` and the plugins an `opencode.json` lists — as the person, before
 * any permission applies. Neither OPENCODE_DISABLE_PROJECT_CONFIG nor `--pure` stops that
 * loader (measured), so no turn starts while such a folder or file exists.
 */
const PROJECT_SETTINGS = ['.opencode', 'opencode.json', 'opencode.jsonc'];

export const opencode = defineProvider({
  id: 'opencode',
  name: 'OpenCode',
  permissions: ['read_only', 'edit', 'provider_default'],
  executable: 'opencode',
  installHint: 'Install OpenCode (npm install -g opencode-ai) and sign in once with `opencode auth login`.',
  loginArgs: ['auth', 'login'],

  launch(spec: TurnSpec, command: string): ProviderLaunch {
    const configPath = join(spec.agentDir, 'opencode.json');
    const config = {
      mcp: {
        [SERVER_NAME]: { type: 'local', command: [spec.helper.command, ...spec.helper.args], environment: spec.helper.env ?? {}, enabled: true },
      },
      // The person's own MCP servers stay off during managed turns: only our helper's tools.
      tools: Object.fromEntries(otherMcpServers(spec).map((name) => [`${name}_*`, false])),
    };
    const permission = spec.permissions === 'provider_default' ? null : PERMISSION[spec.permissions === 'ask' ? 'read_only' : spec.permissions];
    const args = [
      'run',
      '--format', 'json',
      ...(spec.model ? ['--model', spec.model] : []),
      ...(spec.resumeSessionId ? ['--session', spec.resumeSessionId] : []),
    ];
    return {
      command,
      args,
      // OPENCODE_CONFIG is merged over the person's global config; OPENCODE_PERMISSION over every config.
      env: { ...spec.env, OPENCODE_CONFIG: configPath, ...(permission ? { OPENCODE_PERMISSION: JSON.stringify(permission) } : {}) },
      cwd: spec.folder,
      files: [{ path: configPath, contents: `${JSON.stringify(config, null, 2)}\n` }],
    };
  },

  folderSettings(folder, home) {
    const files = folderSettingsFiles(folder, home, PROJECT_SETTINGS, true);
    return files.length === 0 ? null : { files, why: 'OpenCode 1.18.33 imports the plugins they hold or list as you, whatever the app tells it, and takes their other settings too' };
  },

  parser: () => new OpenCodeStreamParser(),
});

/** MCP servers in the person's global OpenCode config other than ours (a folder's own config stops the turn). */
function otherMcpServers(spec: TurnSpec): string[] {
  const configDir = spec.env.XDG_CONFIG_HOME ? join(spec.env.XDG_CONFIG_HOME, 'opencode') : join(spec.home, '.config', 'opencode');
  const files = ['opencode.json', 'opencode.jsonc', 'config.json'].map((f) => join(configDir, f));
  const names = new Set<string>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const mcp = (parse(text) as { mcp?: unknown } | undefined)?.mcp;
    if (mcp && typeof mcp === 'object') for (const name of Object.keys(mcp)) if (name !== SERVER_NAME) names.add(name);
  }
  return [...names];
}

/** Our tools as people read them: OpenCode names them <server>_<tool>. */
function toolName(name: string): string {
  const prefix = `${SERVER_NAME}_`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

class OpenCodeStreamParser implements StreamParser {
  private sessionId: string | null = null;

  parse(line: string): ActivityEvent[] {
    const m = jsonLine(line);
    if (!m) return [];
    const out: ActivityEvent[] = [];
    const sessionId = str(m.sessionID);
    if (sessionId && sessionId !== this.sessionId) {
      this.sessionId = sessionId;
      out.push({ kind: 'session', sessionId });
    }
    const part = (m.part ?? {}) as Record<string, unknown>;
    switch (m.type) {
      case 'text':
        if (typeof part.text === 'string' && part.text.trim() !== '') out.push({ kind: 'text', text: preview(part.text, 4_000) });
        break;
      case 'tool_use': {
        const tool = toolName(String(part.tool ?? 'tool'));
        const state = (part.state ?? {}) as Record<string, unknown>;
        out.push({ kind: 'tool_call', tool, input: previewInput(state.input) });
        if (state.status === 'completed') out.push({ kind: 'tool_result', tool, ok: true, text: String(state.output ?? '') });
        else if (state.status === 'error') out.push({ kind: 'tool_result', tool, ok: false, text: String(state.error ?? 'failed') });
        break;
      }
      case 'step_finish': {
        const tokens = (part.tokens ?? {}) as Record<string, unknown>;
        const cache = (tokens.cache ?? {}) as Record<string, unknown>;
        // Each step (model call) reports its own tokens and cost.
        out.push({
          kind: 'usage',
          inputTokens: num(tokens.input) + num(cache.read) + num(cache.write),
          outputTokens: num(tokens.output) + num(tokens.reasoning),
          tokensScope: 'run',
          costUsd: typeof part.cost === 'number' ? part.cost : null,
          costScope: 'run',
        });
        // The last step ends for a reason other than calling tools: the turn is done. OpenCode
        // 1.18.33 ends an answer cut at the output limit so too, its reason "length" (the Responses
        // API's `response.incomplete`, reason `max_output_tokens`; seen against a fake model server).
        if (part.reason !== 'tool-calls') out.push({ kind: 'result', ok: true, error: null, ...(part.reason === 'length' ? { lostAnswer: 'output_limit' as const } : {}) });
        break;
      }
      case 'error': {
        const error = (m.error ?? {}) as { name?: unknown; data?: { message?: unknown } };
        out.push({ kind: 'result', ok: false, error: preview(String(error.data?.message ?? error.name ?? 'the run failed'), 1_000) });
        break;
      }
      default:
        break;
    }
    return out;
  }
}
