// GitHub Copilot CLI headless (`copilot --output-format json`, the prompt on stdin): the
// command for one turn, with our helper added as an MCP server (the built-in GitHub ones and
// the person's own switched off), its permission flags per choice, and the parser of its
// JSON-lines events. Its token counts are not in the stream: the CLI writes them to a usage
// file when it exits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_NAME } from '../../setup/agentTools';
import { entryFields } from '../../setup/helperCommand';
import { defineProvider, type ActivityEvent, type CantRunCause, type ProviderLaunch, type StreamParser, type TurnSpec } from '../types';
import { jsonLine, num, preview, previewInput, str } from './streamText';

/**
 * Copilot's permission rules per choice. Headless, a tool that would ask is refused, and deny
 * rules win over allow rules. Reading inside the folder needs no approval; may-edit adds
 * its file-writing tools; the shell and URL fetches stay denied. Our helper's tools are allowed.
 */
const PERMISSION_ARGS = {
  read_only: ['--deny-tool', 'write', '--deny-tool', 'shell', '--deny-tool', 'url'],
  edit: ['--allow-tool', 'write', '--deny-tool', 'shell', '--deny-tool', 'url'],
} as const;

export const copilot = defineProvider({
  id: 'copilot',
  name: 'GitHub Copilot CLI',
  permissions: ['read_only', 'edit', 'provider_default'],
  executable: 'copilot',
  installHint: 'Install GitHub Copilot CLI (npm install -g @github/copilot) and sign in once with `copilot login`.',
  loginArgs: ['login'],
  // No offline status command (no signInStatus): a turn that is not signed in says so itself (causeOfExit).

  launch(spec: TurnSpec, command: string): ProviderLaunch {
    const mcpPath = join(spec.agentDir, 'copilot-mcp.json');
    const usagePath = join(spec.agentDir, 'copilot-usage.json');
    const mcp = { mcpServers: { [SERVER_NAME]: { ...entryFields(spec.helper, false), type: 'local', tools: ['*'] } } };
    const args = [
      '--output-format', 'json',
      '--no-auto-update',
      '--no-ask-user',
      // Only our helper: GitHub's own MCP servers and the person's configured ones are off.
      '--disable-builtin-mcps',
      '--additional-mcp-config', `@${mcpPath}`,
      ...personMcpServers(spec).flatMap((name) => ['--disable-mcp-server', name]),
      '--allow-tool', SERVER_NAME,
      // Files outside the folder stay out of reach, the temp folder too.
      '--disallow-temp-dir',
      ...(spec.permissions === 'provider_default' ? [] : PERMISSION_ARGS[spec.permissions === 'ask' ? 'read_only' : spec.permissions]),
      ...(spec.model ? ['--model', spec.model] : []),
      ...(spec.resumeSessionId ? ['--resume', spec.resumeSessionId] : []),
      '--usage-output-file', usagePath,
    ];
    return {
      command,
      args,
      env: spec.env,
      cwd: spec.folder,
      // The usage file is emptied before each run: what it holds afterwards is this run's.
      files: [
        { path: mcpPath, contents: `${JSON.stringify(mcp, null, 2)}\n` },
        { path: usagePath, contents: '' },
      ],
      afterExit: () => usageOf(usagePath),
    };
  },

  causeOfExit: (stderr: string): CantRunCause | undefined => (/No authentication information found/i.test(stderr) ? 'not_signed_in' : undefined),

  parser: () => new CopilotStreamParser(),
});

/** MCP servers in the person's Copilot config ($COPILOT_HOME or ~/.copilot) other than ours. */
function personMcpServers(spec: TurnSpec): string[] {
  const dir = spec.env.COPILOT_HOME ?? join(spec.home, '.copilot');
  try {
    const servers = (JSON.parse(readFileSync(join(dir, 'mcp-config.json'), 'utf8')) as { mcpServers?: unknown }).mcpServers;
    return servers && typeof servers === 'object' ? Object.keys(servers).filter((name) => name !== SERVER_NAME) : [];
  } catch {
    return [];
  }
}

/**
 * The usage file's token counts. They are the session's totals (a resumed session keeps
 * counting); Copilot reports premium requests, not dollars, so no cost.
 */
function usageOf(path: string): ActivityEvent[] {
  let stats: { modelMetrics?: Record<string, { usage?: Record<string, unknown> }> };
  try {
    stats = JSON.parse(readFileSync(path, 'utf8')) as typeof stats;
  } catch {
    return [];
  }
  let inputTokens = 0;
  let outputTokens = 0;
  for (const metrics of Object.values(stats.modelMetrics ?? {})) {
    const u = metrics.usage ?? {};
    inputTokens += num(u.inputTokens) + num(u.cacheReadTokens) + num(u.cacheWriteTokens);
    outputTokens += num(u.outputTokens) + num(u.reasoningTokens);
  }
  return [{ kind: 'usage', inputTokens, outputTokens, tokensScope: 'session', costUsd: null, costScope: 'run' }];
}

/** Our tools as people read them: Copilot names them <server>-<tool>. */
function toolName(name: string): string {
  const prefix = `${SERVER_NAME}-`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/**
 * Copilot CLI 1.0.102 given an empty answer fails the turn with a `session.error` "No response
 * was returned. Send your message again to retry." and exit code 1 (seen against a fake model
 * server). An answer cut at the output limit it cannot tell apart: it calls the model twice more
 * without a word in its output, then ends with exit code 0 and the cut text as its message.
 */
const EMPTY_ANSWER = /^No response was returned\b/i;

class CopilotStreamParser implements StreamParser {
  private readonly toolsById = new Map<string, string>();
  private emptyAnswer = false;

  parse(line: string): ActivityEvent[] {
    const m = jsonLine(line);
    if (!m) return [];
    const data = (m.data ?? {}) as Record<string, unknown>;
    switch (m.type) {
      case 'assistant.message': {
        const text = str(data.content);
        return text && text.trim() !== '' ? [{ kind: 'text', text: preview(text, 4_000) }] : [];
      }
      case 'tool.execution_start': {
        const tool = toolName(String(data.toolName ?? 'tool'));
        if (typeof data.toolCallId === 'string') this.toolsById.set(data.toolCallId, tool);
        return [{ kind: 'tool_call', tool, input: previewInput(data.arguments) }];
      }
      case 'tool.execution_complete': {
        const tool = (typeof data.toolCallId === 'string' && this.toolsById.get(data.toolCallId)) || 'tool';
        const result = (data.result ?? {}) as { content?: unknown };
        const error = (data.error ?? {}) as { message?: unknown };
        return [data.success === true ? { kind: 'tool_result', tool, ok: true, text: String(result.content ?? '') } : { kind: 'tool_result', tool, ok: false, text: String(error.message ?? 'failed') }];
      }
      case 'session.error': {
        const message = str(data.message) ?? 'error';
        this.emptyAnswer ||= EMPTY_ANSWER.test(message);
        return [{ kind: 'error', text: preview(message, 1_000) }];
      }
      case 'result': {
        const out: ActivityEvent[] = [];
        const sessionId = str(m.sessionId);
        if (sessionId) out.push({ kind: 'session', sessionId });
        const ok = m.exitCode === 0;
        out.push({ kind: 'result', ok, error: ok ? null : `Copilot ended with exit code ${String(m.exitCode)}`, ...(this.emptyAnswer ? { lostAnswer: 'empty' as const } : {}) });
        return out;
      }
      default:
        return [];
    }
  }
}
