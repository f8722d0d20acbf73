// Claude Code headless (`claude -p … --output-format stream-json`): the command for one
// turn, with an MCP config holding only our helper, and the parser of its stream-json.
import { join } from 'node:path';
import { SERVER_NAME } from '../../setup/agentTools';
import { entryFields } from '../../setup/helperCommand';
import type { ActivityEvent, CantRunCause, Provider, ProviderLaunch, StreamParser, TurnSpec } from '../types';
import { contentText, jsonLine, num, preview, previewInput, str } from './streamText';

const OUR_TOOLS = `mcp__${SERVER_NAME}__*`;

/** Built-in tools a turn may use without asking, per permission choice (ours are always allowed). */
const ALLOWED_BUILT_INS = {
  read_only: ['Read'],
  edit: ['Read', 'Edit', 'Write', 'NotebookEdit'],
  provider_default: [],
} as const;

export const claudeCode: Provider = {
  id: 'claude_code',
  name: 'Claude Code',
  executable: 'claude',
  installHint: 'Install Claude Code (npm install -g @anthropic-ai/claude-code) and sign in once with `claude auth login`.',
  loginArgs: ['auth', 'login'],
  authStatusArgs: ['auth', 'status'],
  signInCheckApplies: () => true,
  signedIn(output) {
    const status = jsonLine(output.stdout.replace(/\s*\n\s*/g, ' '));
    return typeof status?.loggedIn === 'boolean' ? status.loggedIn : null;
  },

  launch(spec: TurnSpec, command: string): ProviderLaunch {
    const mcpConfig = join(spec.agentDir, 'claude-mcp.json');
    const allowed = [OUR_TOOLS, ...ALLOWED_BUILT_INS[spec.permissions]].join(',');
    const args = [
      '-p',
      '--output-format', 'stream-json',
      '--verbose',
      '--mcp-config', mcpConfig,
      '--strict-mcp-config',
      '--allowedTools', allowed,
      // Read-only and may-edit deny anything else without asking; "provider default"
      // leaves it to the person's own Claude Code settings.
      ...(spec.permissions === 'provider_default' ? [] : ['--permission-mode', 'dontAsk']),
      ...(spec.model ? ['--model', spec.model] : []),
      ...(spec.resumeSessionId ? ['--resume', spec.resumeSessionId] : []),
    ];
    const config = { mcpServers: { [SERVER_NAME]: entryFields(spec.helper, true) } };
    return { command, args, env: spec.env, cwd: spec.folder, files: [{ path: mcpConfig, contents: `${JSON.stringify(config, null, 2)}\n` }] };
  },

  parser: () => new ClaudeStreamParser(),
};

/** Tool names as people read them: our tools without the MCP prefix. */
function toolName(name: string): string {
  const prefix = `mcp__${SERVER_NAME}__`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/**
 * Claude Code's API error codes (on the assistant message it writes instead of an answer,
 * e.g. "Not logged in · Please run /login" with error "authentication_failed") that only the
 * person can fix; overloaded, server errors and the rest are worth the next turn.
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

class ClaudeStreamParser implements StreamParser {
  private readonly toolsById = new Map<string, string>();
  private apiError: string | null = null;

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
      const name = typeof block.tool_use_id === 'string' ? this.toolsById.get(block.tool_use_id) : undefined;
      out.push({ kind: 'tool_result', tool: toolName(name ?? 'tool'), ok: block.is_error !== true, text: contentText(block.content) });
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
    for (const denial of Array.isArray(m.permission_denials) ? (m.permission_denials as Array<{ tool_name?: unknown }>) : []) {
      out.push({ kind: 'note', text: `Not allowed to use ${String(denial.tool_name ?? 'a tool')} (outside the permissions chosen for this agent).` });
    }
    const ok = m.is_error !== true && m.subtype === 'success';
    const cause = ok || this.apiError === null ? undefined : CANT_RUN[this.apiError];
    out.push({ kind: 'result', ok, error: ok ? null : preview(str(m.result) ?? String(m.subtype ?? 'the run failed'), 1_000), ...(cause ? { cause } : {}) });
    return out;
  }
}

function blocksOf(m: Record<string, unknown>): Array<Record<string, unknown>> {
  const message = m.message as { content?: unknown } | undefined;
  return Array.isArray(message?.content) ? (message.content as Array<Record<string, unknown>>) : [];
}
