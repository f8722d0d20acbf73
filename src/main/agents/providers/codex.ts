// Codex headless (`codex exec --json`, `codex exec resume <id>`): the command for one turn,
// with our helper as its only enabled MCP server, and the parser of its JSON events.
import { join } from 'node:path';
import { SERVER_NAME } from '../../setup/agentTools';
import { defineProvider, type ActivityEvent, type CantRunCause, type LostAnswer, type ProviderLaunch, type StreamParser, type TurnSpec } from '../types';
import { codexInstallDir, managedCodexHome, personCodexConfig, personCodexHome } from './codexHome';
import { dataFolderOwnFiles } from './dataFolder';
import { contentText, jsonLine, num, preview, previewInput, str } from './streamText';

/**
 * What commands the model runs may touch, per permission choice (Codex's own tools and the
 * commands they run are sandboxed; our MCP helper is not), as Codex permission profiles with
 * `approval_policy="never"`: a headless turn cannot answer approvals, so anything past the
 * profile is refused. Read only: reads the folder, the system's basics (`:minimal`) and Codex
 * itself, writes nothing, never the data folder. May edit: reads the disk (`:root`) but the
 * data folder's own files (the agent token, the databases: dataFolder.ts, `none`), writes in
 * the folder only (not /tmp, not $TMPDIR; Codex itself keeps its `.git` and `.codex` read-only).
 * (Codex offers no "Ask me": were one asked for, it gets read only.)
 */
function sandboxConfig(spec: TurnSpec, command: string): string[] {
  if (spec.permissions === 'provider_default') return [];
  const profile = spec.permissions === 'edit' ? 'letagents_edit' : 'letagents_read';
  const filesystem: Record<string, TomlValue> =
    spec.permissions === 'edit'
      ? { ':root': 'read', ':workspace_roots': { '.': 'write' }, ...Object.fromEntries(dataFolderOwnFiles(spec.dataDir).map((file) => [file, 'none'])) }
      : { ':minimal': 'read', ':workspace_roots': { '.': 'read' }, [codexInstallDir(command)]: 'read', [spec.dataDir]: 'none' };
  return [`default_permissions="${profile}"`, `permissions.${profile}.filesystem=${inlineTable(filesystem)}`, 'approval_policy="never"'];
}

export const codex = defineProvider({
  id: 'codex',
  name: 'Codex',
  // Codex 0.171 has no approval path a headless turn can use.
  permissions: ['read_only', 'edit', 'provider_default'],
  permissionsNote: 'Codex cannot ask you in the app before each tool use (its headless runs have no approval path LetAgents can answer), so "Ask me" is not offered for it.',
  executable: 'codex',
  installHint: 'Install Codex (npm install -g @openai/codex) and sign in once with `codex login`.',
  loginArgs: ['login'],
  signInStatus: {
    args: ['login', 'status'],
    // Another model provider in its config signs in its own way (an API key in the environment).
    applies: (env, home) => [undefined, 'openai'].includes(personCodexConfig(personCodexHome(env, home))?.model_provider as string | undefined),
    signedIn(output) {
      if (output.code === 0) return true;
      return /Not logged in/i.test(`${output.stdout}\n${output.stderr}`) ? false : null;
    },
    beforeEachTurn: true,
  },

  launch(spec: TurnSpec, command: string): ProviderLaunch {
    // Our tools are always allowed, as with Claude Code: Codex otherwise asks before a tool
    // whose annotations say it may change or remove things (register_agent_session,
    // claim_task, …), and a headless turn cannot answer, so the call would fail.
    const ours = { command: spec.helper.command, args: spec.helper.args, env: spec.helper.env ?? {}, default_tools_approval_mode: 'approve' };
    const home = managedCodexHome(spec.agentDir, personCodexHome(spec.env, spec.home), spec.permissions);
    const config = [`mcp_servers.${SERVER_NAME}=${inlineTable(ours)}`, ...sandboxConfig(spec, command)];
    const args = [
      'exec',
      ...(spec.resumeSessionId ? ['resume'] : []),
      '--json',
      '--skip-git-repo-check',
      // Neither the person's nor the folder's exec-policy rules may let a command past the sandbox.
      '--ignore-rules',
      ...(spec.model ? ['-m', spec.model] : []),
      ...config.flatMap((c) => ['-c', c]),
      ...(spec.resumeSessionId ? [spec.resumeSessionId] : []),
      // The prompt comes on stdin.
      '-',
    ];
    return {
      command,
      args,
      env: { ...spec.env, CODEX_HOME: home.dir },
      cwd: spec.folder,
      files: [{ path: join(home.dir, 'config.toml'), contents: home.config }],
      links: home.auth ? [{ path: join(home.dir, 'auth.json'), target: home.auth }] : [],
    };
  },

  parser: () => new CodexStreamParser(),
});

const tomlKey = (key: string) => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

/** A TOML inline table of strings, string arrays and (nested) string tables (JSON strings are TOML basic strings). */
type TomlValue = string | readonly string[] | { readonly [key: string]: TomlValue };
function inlineTable(value: { readonly [key: string]: TomlValue }): string {
  const item = (v: TomlValue): string =>
    typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? `[${v.map((x) => JSON.stringify(x)).join(',')}]` : inlineTable(v as { readonly [key: string]: TomlValue });
  return `{${Object.entries(value).map(([k, v]) => `${tomlKey(k)}=${item(v)}`).join(',')}}`;
}

/**
 * What Codex 0.171's failed turn says when only the person can fix it (checked against its
 * real messages: "unexpected status 401 Unauthorized: …", "Missing environment variable:
 * `X`.", "Quota exceeded. Check your plan and billing details.", "The model `x` does not exist").
 */
export function cantRunCause(message: string): CantRunCause | undefined {
  if (/\b401\b|Unauthorized|Not logged in|Missing environment variable|invalid_api_key|Incorrect API key|token_expired|refresh token/i.test(message)) return 'not_signed_in';
  if (/Quota exceeded|insufficient_quota|usage limit|rate limit|\b429\b|Too Many Requests/i.test(message)) return 'quota';
  if (/model\b.*\b(does not exist|not found|not supported)|model_not_found/i.test(message)) return 'model_not_found';
  return undefined;
}

/**
 * Codex 0.171 at the output limit (the Responses API's `response.incomplete`, reason
 * `max_output_tokens`) does not ask the model to go on: the turn fails with "Incomplete response
 * returned, reason: max_output_tokens" (seen against a fake model server). An empty answer needs
 * no words here: its turn completes with an empty `agent_message`, so the turn wrote no text.
 */
function lostAnswerOf(message: string): LostAnswer | undefined {
  return /Incomplete response returned, reason: max_output_tokens/i.test(message) ? 'output_limit' : undefined;
}

class CodexStreamParser implements StreamParser {
  parse(line: string): ActivityEvent[] {
    const m = jsonLine(line);
    if (!m) return [];
    switch (m.type) {
      case 'thread.started': {
        const sessionId = str(m.thread_id);
        return sessionId ? [{ kind: 'session', sessionId }] : [];
      }
      case 'item.started':
        return this.started((m.item ?? {}) as Record<string, unknown>);
      case 'item.completed':
        return this.completed((m.item ?? {}) as Record<string, unknown>);
      case 'turn.completed': {
        const usage = (m.usage ?? {}) as Record<string, unknown>;
        return [
          // Codex reports the thread's running totals, also after `exec resume`.
          { kind: 'usage', inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens), tokensScope: 'session', costUsd: null, costScope: 'session' },
          { kind: 'result', ok: true, error: null },
        ];
      }
      case 'turn.failed': {
        const error = (m.error ?? {}) as Record<string, unknown>;
        const message = str(error.message) ?? 'the turn failed';
        const cause = cantRunCause(message);
        const lostAnswer = lostAnswerOf(message);
        return [{ kind: 'result', ok: false, error: preview(message, 1_000), ...(cause ? { cause } : {}), ...(lostAnswer ? { lostAnswer } : {}) }];
      }
      case 'error': {
        const text = preview(str(m.message) ?? 'error', 1_000);
        // "Reconnecting... 2/5 (…)", "Reconnecting... waiting for network (…)": it retries on its own.
        return [/^Reconnecting\b/.test(text) ? { kind: 'reconnecting', text } : { kind: 'error', text }];
      }
      default:
        return [];
    }
  }

  private started(item: Record<string, unknown>): ActivityEvent[] {
    if (item.type === 'mcp_tool_call') return [{ kind: 'tool_call', tool: String(item.tool ?? 'tool'), input: previewInput(item.arguments) }];
    if (item.type === 'command_execution') return [{ kind: 'tool_call', tool: 'shell', input: preview(String(item.command ?? '')) }];
    return [];
  }

  private completed(item: Record<string, unknown>): ActivityEvent[] {
    switch (item.type) {
      case 'agent_message':
        return typeof item.text === 'string' && item.text.trim() !== '' ? [{ kind: 'text', text: preview(item.text, 4_000) }] : [];
      case 'mcp_tool_call': {
        const error = (item.error ?? null) as { message?: unknown } | null;
        const result = (item.result ?? null) as { content?: unknown; is_error?: unknown } | null;
        const ok = item.status === 'completed' && !error && result?.is_error !== true;
        const text = error ? String(error.message ?? 'failed') : contentText(result?.content);
        return [{ kind: 'tool_result', tool: String(item.tool ?? 'tool'), ok, text }];
      }
      case 'command_execution':
        return [{ kind: 'tool_result', tool: 'shell', ok: item.exit_code === 0, text: preview(String(item.aggregated_output ?? '')) }];
      case 'file_change': {
        const changes = Array.isArray(item.changes) ? (item.changes as Array<{ path?: unknown; kind?: unknown }>) : [];
        return [{ kind: 'note', text: `Changed ${changes.map((c) => `${String(c.path)} (${String(c.kind)})`).join(', ') || 'files'}` }];
      }
      case 'error':
        // Codex's own warnings (e.g. unknown model metadata): shown, but the turn goes on.
        return [{ kind: 'note', text: preview(String(item.message ?? ''), 1_000) }];
      default:
        return [];
    }
  }
}
