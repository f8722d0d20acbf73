// Gemini CLI headless (`gemini -p "" --output-format stream-json`, the prompt on stdin):
// the command for one turn, with our helper as the only MCP server it may use, and the
// parser of its stream-json events.
import { join } from 'node:path';
import { SERVER_NAME } from '../../setup/agentTools';
import { entryFields } from '../../setup/helperCommand';
import { defineProvider, type ActivityEvent, type ProviderLaunch, type StreamParser, type TurnSpec } from '../types';
import { jsonLine, num, preview, previewInput, str } from './streamText';

/**
 * Gemini's approval mode per permission choice. Headless, whatever would ask is refused:
 * "default" runs only read tools; "auto_edit" adds its file-editing tools; the shell still
 * asks, so it is refused. Our own tools are trusted in the settings file below.
 */
const APPROVAL_MODE = { read_only: 'default', edit: 'auto_edit' } as const;

export const gemini = defineProvider({
  id: 'gemini',
  name: 'Gemini CLI',
  aliases: ['gemini-cli'],
  permissions: ['read_only', 'edit', 'provider_default'],
  executable: 'gemini',
  installHint: 'Install Gemini CLI (npm install -g @google/gemini-cli) and sign in once with `gemini`.',

  launch(spec: TurnSpec, command: string): ProviderLaunch {
    // Gemini reads this file as its "system" settings (over the person's own): our helper,
    // trusted so its calls need no confirmation.
    const settingsPath = join(spec.agentDir, 'gemini-settings.json');
    const settings = { mcpServers: { [SERVER_NAME]: { ...entryFields(spec.helper, true), trust: true } } };
    const args = [
      // -p with the prompt on stdin: headless, the prompt never on the command line.
      '-p', '',
      '--output-format', 'stream-json',
      // Headless Gemini refuses an untrusted folder; the agent's folder is the person's choice.
      '--skip-trust',
      '--allowed-mcp-server-names', SERVER_NAME,
      ...(spec.permissions === 'provider_default' ? [] : ['--approval-mode', APPROVAL_MODE[spec.permissions === 'ask' ? 'read_only' : spec.permissions]]),
      ...(spec.model ? ['--model', spec.model] : []),
      ...(spec.resumeSessionId ? ['--resume', spec.resumeSessionId] : []),
    ];
    return {
      command,
      args,
      env: { ...spec.env, GEMINI_CLI_SYSTEM_SETTINGS_PATH: settingsPath },
      cwd: spec.folder,
      files: [{ path: settingsPath, contents: `${JSON.stringify(settings, null, 2)}\n` }],
    };
  },

  parser: () => new GeminiStreamParser(),
});

/** Our tools as people read them: Gemini names them mcp_<server>_<tool>. */
function toolName(name: string): string {
  const prefix = `mcp_${SERVER_NAME}_`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

class GeminiStreamParser implements StreamParser {
  private readonly toolsById = new Map<string, string>();
  /** Assistant text arrives in pieces (delta); it is logged whole, before the next event. */
  private text = '';

  parse(line: string): ActivityEvent[] {
    const m = jsonLine(line);
    if (!m) return [];
    if (m.type === 'message' && m.role === 'assistant') {
      this.text += str(m.content) ?? '';
      return [];
    }
    const out = this.flushText();
    switch (m.type) {
      case 'init': {
        const sessionId = str(m.session_id);
        if (sessionId) out.push({ kind: 'session', sessionId });
        break;
      }
      case 'tool_use': {
        const name = String(m.tool_name ?? 'tool');
        if (typeof m.tool_id === 'string') this.toolsById.set(m.tool_id, name);
        out.push({ kind: 'tool_call', tool: toolName(name), input: previewInput(m.parameters) });
        break;
      }
      case 'tool_result': {
        const name = (typeof m.tool_id === 'string' && this.toolsById.get(m.tool_id)) || 'tool';
        const error = (m.error ?? null) as { message?: unknown } | null;
        const ok = m.status === 'success';
        out.push({ kind: 'tool_result', tool: toolName(name), ok, text: ok ? String(m.output ?? '') : String(error?.message ?? m.output ?? 'failed') });
        break;
      }
      case 'error':
        out.push({ kind: m.severity === 'warning' ? 'note' : 'error', text: preview(str(m.message) ?? 'error', 1_000) });
        break;
      case 'result': {
        const stats = (m.stats ?? {}) as Record<string, unknown>;
        // The stats are this run's (a resumed session starts counting again); Gemini reports no cost.
        out.push({ kind: 'usage', inputTokens: num(stats.input_tokens), outputTokens: num(stats.output_tokens), tokensScope: 'run', costUsd: null, costScope: 'run' });
        const ok = m.status === 'success';
        const error = (m.error ?? null) as { message?: unknown } | null;
        out.push({ kind: 'result', ok, error: ok ? null : preview(String(error?.message ?? 'the run failed'), 1_000) });
        break;
      }
      default:
        break;
    }
    return out;
  }

  private flushText(): ActivityEvent[] {
    const text = this.text;
    this.text = '';
    return text.trim() === '' ? [] : [{ kind: 'text', text: preview(text, 4_000) }];
  }
}
