// Claude Code headless (`claude -p … --output-format stream-json`): the command for one
// turn, with an MCP config holding only our helper, and the parser of its stream-json.
import { join } from 'node:path';
import { SERVER_NAME } from '../../setup/agentTools';
import { TURN_KEY_ENV } from '../../../shared-node/protocol';
import { APPROVAL_TOOL } from '../../mcp/approvalTool';
import { isApprovalAnswer } from '../../approvals/approvals';
import { entryFields } from '../../setup/helperCommand';
import { defineProvider, type ActivityEvent, type CantRunCause, type ProviderLaunch, type StreamParser, type TurnLimit, type TurnSpec } from '../types';
import { dataFolderOwnFiles } from './dataFolder';
import { contentText, jsonLine, num, preview, previewInput, str } from './streamText';

const OUR_TOOLS = `mcp__${SERVER_NAME}__*`;

/**
 * Claude Code's own tools a turn has at all, per permission choice. Under `--restricted` a
 * tool not named here does not exist in the turn (so no settings file can allow Bash under
 * "read only"), the file tools cannot reach past the folder (symlinks included), and user,
 * project and local settings files are not read (their hooks, allow rules, apiKeyHelper).
 */
const BUILT_INS = {
  read_only: ['Read'],
  edit: ['Read', 'Edit', 'Write', 'NotebookEdit'],
} as const;

/** Path rules as Claude Code reads them: `//` starts an absolute path. */
const inFolder = (tool: string, folder: string) => `${tool}(/${folder.replace(/\/+$/, '')}/**)`;
const onPath = (tool: string, path: string) => `${tool}(/${path})`;

/** The data folder's own files, each denied by name to every file tool (dataFolder.ts). */
function denyDataFolder(dataDir: string): string[] {
  const files = dataFolderOwnFiles(dataDir);
  return BUILT_INS.edit.flatMap((tool) => files.flatMap((file) => [onPath(tool, file), inFolder(tool, file)]));
}

export const claudeCode = defineProvider({
  id: 'claude_code',
  name: 'Claude Code',
  aliases: ['claude'],
  permissions: ['read_only', 'edit', 'ask', 'provider_default'],
  executable: 'claude',
  installHint: 'Install Claude Code (npm install -g @anthropic-ai/claude-code) and sign in once with `claude auth login`.',
  loginArgs: ['auth', 'login'],
  signInStatus: {
    args: ['auth', 'status'],
    signedIn(output) {
      const status = jsonLine(output.stdout.replace(/\s*\n\s*/g, ' '));
      return typeof status?.loggedIn === 'boolean' ? status.loggedIn : null;
    },
  },

  launch(spec: TurnSpec, command: string): ProviderLaunch {
    const mcpConfig = join(spec.agentDir, 'claude-mcp.json');
    const args = [
      '-p',
      '--output-format', 'stream-json',
      '--verbose',
      '--mcp-config', mcpConfig,
      '--strict-mcp-config',
      ...permissionArgs(spec),
      ...(spec.model ? ['--model', spec.model] : []),
      ...(spec.resumeSessionId ? ['--resume', spec.resumeSessionId] : []),
    ];
    // An "Ask me" turn's helper carries the turn key: its connection alone may ask the person.
    const helper = spec.turnKey ? { ...spec.helper, env: { ...spec.helper.env, [TURN_KEY_ENV]: spec.turnKey } } : spec.helper;
    const config = { mcpServers: { [SERVER_NAME]: entryFields(helper, true) } };
    // The prompt tool waits for the person (up to the approval limit): Claude Code must wait as long.
    const env = spec.turnKey ? { ...spec.env, MCP_TOOL_TIMEOUT: String(24 * 3_600_000) } : spec.env;
    return { command, args, env, cwd: spec.folder, files: [{ path: mcpConfig, contents: `${JSON.stringify(config, null, 2)}\n` }] };
  },

  parser: () => new ClaudeStreamParser(),
});

/**
 * What the turn may do besides our tools. Read-only and may-edit: `--restricted` with only
 * their tools, allowed in the folder, anything else denied without asking. Ask me: also Bash; the
 * folder's reads are allowed and every other use waits for the person's answer (our prompt
 * tool), files outside the folder stay out of reach. Provider default:
 * the person's own user settings decide; the folder's project and local settings
 * (hooks, allow rules, apiKeyHelper) are never read. The data folder's own files are never
 * readable (agents' worktrees in it are their folders).
 */
function permissionArgs(spec: TurnSpec): string[] {
  const denyData = ['--disallowedTools', denyDataFolder(spec.dataDir).join(',')];
  if (spec.permissions === 'provider_default') return ['--setting-sources', 'user', '--allowedTools', OUR_TOOLS, ...denyData];
  if (spec.permissions === 'ask') {
    const prompt = `mcp__${SERVER_NAME}__${APPROVAL_TOOL}`;
    return [
      '--restricted',
      '--tools', [...BUILT_INS.edit, 'Bash'].join(','),
      '--allowedTools', [OUR_TOOLS, inFolder('Read', spec.folder)].join(','),
      // The model never sees the prompt tool: only Claude Code calls it.
      '--disallowedTools', [prompt, ...denyData.slice(1)].join(','),
      '--permission-mode', 'default',
      '--permission-prompt-tool', prompt,
    ];
  }
  const tools = BUILT_INS[spec.permissions];
  return [
    '--restricted',
    '--tools', tools.join(','),
    '--allowedTools', [OUR_TOOLS, ...tools.map((t) => inFolder(t, spec.folder))].join(','),
    ...denyData,
    '--permission-mode', 'dontAsk',
  ];
}

/** What Claude Code says when a tool is not in the turn, or a file is outside its folder. */
const REFUSED = /No such tool available|--restricted confines the file tools/;
const deniedNote = (tool: string): ActivityEvent => ({ kind: 'note', text: `Not allowed to use ${tool} (outside the permissions chosen for this agent).` });

/** Tool names as people read them: our tools without the MCP prefix. */
function toolName(name: string): string {
  const prefix = `mcp__${SERVER_NAME}__`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/**
 * Claude Code's API error codes (on the assistant message it writes instead of an answer,
 * e.g. "Not logged in · Please run /login" with error "authentication_failed") that only the
 * person can fix; overloaded, server errors and the rest are worth the next turn. A
 * `rate_limit` is only the person's to fix when it is a usage limit without a reset time
 * (`limitOf` reads the others).
 */
const CANT_RUN: Readonly<Record<string, CantRunCause>> = {
  authentication_failed: 'not_signed_in',
  oauth_org_not_allowed: 'not_signed_in',
  account_on_hold: 'not_signed_in',
  verification_required: 'not_signed_in',
  billing_error: 'quota',
  rate_limit: 'quota',
  model_not_found: 'model_not_found',
};

/**
 * Claude Code 2.1.332's own shape of a refused turn (seen from the real CLI against a fake
 * server answering 429 with Anthropic's `anthropic-ratelimit-unified-*` headers):
 * - a used-up usage limit (claude.ai plans, a Claude gateway): a line
 *   `{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","resetsAt":<unix s>,"rateLimitType":"five_hour",…}}`,
 *   then the synthetic assistant message "You've hit your 5-hour limit · resets 6:19am (UTC)"
 *   with `"error":"rate_limit"`, `"api_error":"usage_limit_reached"` and the same
 *   `api_error_params.rate_limit_info`, and a result with `"api_error":"usage_limit_reached"`;
 * - a short rate limit (API key): "API Error: Request rejected (429) · …" with
 *   `"error":"rate_limit"` and `"api_error_status":429`, no reset time;
 * - an overload: "API Error: 529 Overloaded. …" with `"error":"server_error"`,
 *   `"api_error_status":529`, `"api_error_type":"overloaded_error"`.
 */
function limitOf(apiError: string | null, m: Record<string, unknown>, resetsAt: number | null): TurnLimit | undefined {
  const usageLimit = m.api_error === 'usage_limit_reached';
  if ((apiError === 'rate_limit' || usageLimit) && resetsAt !== null) return { kind: 'usage_limit', resetsAt: new Date(resetsAt * 1_000).toISOString() };
  if (apiError === 'rate_limit' && !usageLimit) return { kind: 'rate_limited' };
  const overloaded = m.api_error_status === 529 || m.api_error_type === 'overloaded_error';
  if (apiError === 'overloaded' || (apiError === 'server_error' && overloaded)) return { kind: 'rate_limited' };
  return undefined;
}

/** A rejected limit's reset time (unix seconds) from `rate_limit_info`, when it names one. */
function rejectedReset(info: unknown): number | null {
  const i = info as { status?: unknown; resetsAt?: unknown } | null | undefined;
  return i?.status === 'rejected' && typeof i.resetsAt === 'number' && Number.isFinite(i.resetsAt) ? i.resetsAt : null;
}

class ClaudeStreamParser implements StreamParser {
  private readonly toolsById = new Map<string, string>();
  /** Tool uses whose refusal the log has told already (a refused tool, or the person's answer in Needs you). */
  private readonly toldDenials = new Set<string>();
  private apiError: string | null = null;
  /** The reset time of a usage limit the run hit (unix seconds). */
  private resetsAt: number | null = null;

  parse(line: string): ActivityEvent[] {
    const m = jsonLine(line);
    if (!m) return [];
    switch (m.type) {
      case 'system':
        return m.subtype === 'init' ? this.init(m) : [];
      case 'assistant':
        return this.assistant(m);
      case 'user':
        return this.toolResults(m);
      case 'result':
        return this.result(m);
      case 'rate_limit_event':
        this.resetsAt = rejectedReset(m.rate_limit_info) ?? this.resetsAt;
        return [];
      default:
        return [];
    }
  }

  private init(m: Record<string, unknown>): ActivityEvent[] {
    const out: ActivityEvent[] = [];
    const sessionId = str(m.session_id);
    if (sessionId) out.push({ kind: 'session', sessionId });
    const servers = Array.isArray(m.mcp_servers) ? (m.mcp_servers as Array<{ name?: unknown; status?: unknown }>) : [];
    const ours = servers.find((s) => s.name === SERVER_NAME);
    if (!ours || ours.status !== 'connected') {
      out.push({ kind: 'error', text: `LetAgents tools did not connect (${ours ? String(ours.status) : 'not started'}).` });
    }
    return out;
  }

  private assistant(m: Record<string, unknown>): ActivityEvent[] {
    const out: ActivityEvent[] = [];
    if (typeof m.error === 'string' && m.error !== '') this.apiError = m.error;
    this.resetsAt = rejectedReset((m.api_error_params as { rate_limit_info?: unknown } | undefined)?.rate_limit_info) ?? this.resetsAt;
    for (const block of blocksOf(m)) {
      if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() !== '') {
        out.push({ kind: 'text', text: preview(block.text, 4_000) });
      } else if (block.type === 'tool_use' && typeof block.name === 'string') {
        if (typeof block.id === 'string') this.toolsById.set(block.id, block.name);
        out.push({ kind: 'tool_call', tool: toolName(block.name), input: previewInput(block.input) });
      }
    }
    return out;
  }

  private toolResults(m: Record<string, unknown>): ActivityEvent[] {
    const out: ActivityEvent[] = [];
    for (const block of blocksOf(m)) {
      if (block.type !== 'tool_result') continue;
      const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : null;
      const name = toolName((id ? this.toolsById.get(id) : undefined) ?? 'tool');
      const text = contentText(block.content);
      // A tool the permission level leaves out, or a path outside the folder: said as a denial.
      if (block.is_error === true && REFUSED.test(text)) {
        out.push(deniedNote(name));
        if (id) this.toldDenials.add(id);
      } else if (block.is_error === true && isApprovalAnswer(text)) {
        // The person's Deny (or no answer): the approvals service logged who decided.
        if (id) this.toldDenials.add(id);
      } else out.push({ kind: 'tool_result', tool: name, ok: block.is_error !== true, text });
    }
    return out;
  }

  private result(m: Record<string, unknown>): ActivityEvent[] {
    const usage = (m.usage ?? {}) as Record<string, unknown>;
    const out: ActivityEvent[] = [
      {
        kind: 'usage',
        // Anthropic counts cached input apart from input_tokens; all of it was read.
        inputTokens: num(usage.input_tokens) + num(usage.cache_creation_input_tokens) + num(usage.cache_read_input_tokens),
        outputTokens: num(usage.output_tokens),
        tokensScope: 'run',
        costUsd: typeof m.total_cost_usd === 'number' ? m.total_cost_usd : null,
        // total_cost_usd keeps counting across --resume: it is the session's total.
        costScope: 'session',
      },
    ];
    for (const denial of Array.isArray(m.permission_denials) ? (m.permission_denials as Array<{ tool_name?: unknown; tool_use_id?: unknown }>) : []) {
      if (typeof denial.tool_use_id === 'string' && this.toldDenials.has(denial.tool_use_id)) continue;
      out.push(deniedNote(String(denial.tool_name ?? 'a tool')));
    }
    const ok = m.is_error !== true && m.subtype === 'success';
    const limit = ok ? undefined : limitOf(this.apiError, m, this.resetsAt);
    const cause = ok || limit || this.apiError === null ? undefined : CANT_RUN[this.apiError];
    // Claude Code 2.1.332 at the output limit: it asks the model to resume three times, then ends
    // with "API Error: Claude's response exceeded the 128000 output token maximum…", an
    // `is_error` result and `"api_error":"max_output_tokens"` (seen against a fake model server).
    const outputLimit = !ok && (m.api_error === 'max_output_tokens' || this.apiError === 'max_output_tokens');
    out.push({
      kind: 'result',
      ok,
      error: ok ? null : preview(str(m.result) ?? String(m.subtype ?? 'the run failed'), 1_000),
      ...(cause ? { cause } : {}),
      ...(limit ? { limit } : {}),
      ...(outputLimit ? { lostAnswer: 'output_limit' as const } : {}),
    });
    return out;
  }
}

function blocksOf(m: Record<string, unknown>): Array<Record<string, unknown>> {
  const message = m.message as { content?: unknown } | undefined;
  return Array.isArray(message?.content) ? (message.content as Array<Record<string, unknown>>) : [];
}
