// Gemini CLI headless (`gemini -p "" --output-format stream-json`, the prompt on stdin):
// the command for one turn, with our helper as the only MCP server it may use and the
// permission level as an admin policy (nothing a user, project or extension sets outranks
// it), a refusal to run over the folder's own settings, and the parser of its stream-json.
import { join } from 'node:path';
import { SERVER_NAME } from '../../setup/agentTools';
import { entryFields } from '../../setup/helperCommand';
import { defineProvider, type ActivityEvent, type LostAnswer, type ProviderLaunch, type StreamParser, type TurnSpec } from '../types';
import { folderSettingsFiles } from './folderSettings';
import { jsonLine, num, preview, previewInput, str } from './streamText';

/**
 * Gemini's approval mode per permission choice. Headless, whatever would ask is refused:
 * "default" runs only read tools; "auto_edit" adds its file-editing tools (and, on its own,
 * web_fetch); the shell still asks, so it is refused.
 */
const APPROVAL_MODE = { read_only: 'default', edit: 'auto_edit' } as const;

/**
 * The tools each level may use, as an admin-tier policy (`--admin-policy`): everything else is
 * denied, web_fetch and web search included, whatever user, project or extension policies and
 * settings (`tools.allowed`) say. Our own tools (mcp_letagents_*) are allowed.
 */
const ALLOWED_TOOLS = {
  read_only: ['glob', 'grep_search', 'list_directory', 'read_file', 'read_many_files'],
  edit: ['glob', 'grep_search', 'list_directory', 'read_file', 'read_many_files', 'write_file', 'replace'],
} as const;

function adminPolicy(level: keyof typeof ALLOWED_TOOLS): string {
  const rule = (fields: string[]) => `[[rule]]\n${fields.join('\n')}\n`;
  return [
    `# LetAgents Desktop: what a managed "${level}" turn may use. Admin tier: no other policy outranks it.`,
    rule(['toolName = "*"', 'decision = "deny"', 'priority = 100']),
    rule([`toolName = ${JSON.stringify(ALLOWED_TOOLS[level])}`, 'decision = "allow"', 'priority = 200']),
    // With mcpName, Gemini prefixes toolName itself (mcp_<server>_<toolName>).
    rule([`mcpName = "${SERVER_NAME}"`, 'toolName = "*"', 'decision = "allow"', 'priority = 200']),
  ].join('\n');
}

/**
 * What Gemini CLI 0.61 obeys from a project whatever it is told. Headless it starts a stdio MCP
 * server (our helper) only in a trusted folder (`--skip-trust`), and a trusted folder's
 * `.gemini/settings.json` is merged in: `context.includeDirectories` widens where its file
 * tools reach (concatenated, so no setting of ours removes it), hooks run; every `.gemini/.env`
 * from the folder up to the root sets variables (NODE_OPTIONS among them: measured, code ran
 * as the person). No turn starts while one exists; plain `.env` files are ignored (`ignoreLocalEnv`).
 */
const FOLDER_SETTINGS = '.gemini/settings.json';
const ENV_FILES = '.gemini/.env';

export const gemini = defineProvider({
  id: 'gemini',
  name: 'Gemini CLI',
  aliases: ['gemini-cli'],
  permissions: ['read_only', 'edit', 'provider_default'],
  executable: 'gemini',
  installHint: 'Install Gemini CLI (npm install -g @google/gemini-cli) and sign in once with `gemini`.',

  launch(spec: TurnSpec, command: string): ProviderLaunch {
    // Gemini reads this file as its "system" settings (over the person's own): our helper,
    // trusted so its calls need no confirmation; no `.env` but the home folder's.
    const settingsPath = join(spec.agentDir, 'gemini-settings.json');
    const policyPath = join(spec.agentDir, 'gemini-policy.toml');
    const settings = { mcpServers: { [SERVER_NAME]: { ...entryFields(spec.helper, true), trust: true } }, advanced: { ignoreLocalEnv: true } };
    const level = spec.permissions === 'provider_default' ? null : spec.permissions === 'ask' ? 'read_only' : spec.permissions;
    const args = [
      // -p with the prompt on stdin: headless, the prompt never on the command line.
      '-p', '',
      '--output-format', 'stream-json',
      // Headless Gemini refuses an untrusted folder; the agent's folder is the person's choice.
      '--skip-trust',
      '--allowed-mcp-server-names', SERVER_NAME,
      ...(level ? ['--approval-mode', APPROVAL_MODE[level], '--admin-policy', policyPath] : []),
      ...(spec.model ? ['--model', spec.model] : []),
      ...(spec.resumeSessionId ? ['--resume', spec.resumeSessionId] : []),
    ];
    return {
      command,
      args,
      env: { ...spec.env, GEMINI_CLI_SYSTEM_SETTINGS_PATH: settingsPath },
      cwd: spec.folder,
      files: [
        { path: settingsPath, contents: `${JSON.stringify(settings, null, 2)}\n` },
        ...(level ? [{ path: policyPath, contents: adminPolicy(level) }] : []),
      ],
    };
  },

  folderSettings(folder, home) {
    const files = [...folderSettingsFiles(folder, home, [FOLDER_SETTINGS], false), ...folderSettingsFiles(folder, home, [ENV_FILES], true)];
    return files.length === 0
      ? null
      : { files, why: "Gemini CLI 0.61 runs our helper only in a folder it trusts, and then takes a trusted folder's settings (hooks, extra folders its file tools reach) and every .gemini/.env up to the root (variables such as NODE_OPTIONS, which ran code as you) whatever the app tells it" };
  },

  parser: () => new GeminiStreamParser(),
});

/** Our tools as people read them: Gemini names them mcp_<server>_<tool>. */
function toolName(name: string): string {
  const prefix = `mcp_${SERVER_NAME}_`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

/**
 * Gemini CLI 0.61's words when the model's answer came to nothing (seen against a fake model
 * server): it tries three more times, then fails with one of these errors. An answer cut at the
 * limit after some text (finishReason MAX_TOKENS) is not among them: that run ends "success"
 * and says nothing of the cut, so its turn reads as one that wrote and passed.
 */
const LOST_ANSWER_WORDS: ReadonlyArray<readonly [RegExp, LostAnswer]> = [
  [/Model response was truncated because it exceeded the token limit/i, 'output_limit'],
  [/The model returned an empty response with no text or thoughts/i, 'empty'],
];

class GeminiStreamParser implements StreamParser {
  private readonly toolsById = new Map<string, string>();
  private lostAnswer: LostAnswer | undefined;
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
      case 'error': {
        const message = str(m.message) ?? 'error';
        this.lostAnswer ??= LOST_ANSWER_WORDS.find(([words]) => words.test(message))?.[1];
        out.push({ kind: m.severity === 'warning' ? 'note' : 'error', text: preview(message, 1_000) });
        break;
      }
      case 'result': {
        const stats = (m.stats ?? {}) as Record<string, unknown>;
        // The stats are this run's (a resumed session starts counting again); Gemini reports no cost.
        out.push({ kind: 'usage', inputTokens: num(stats.input_tokens), outputTokens: num(stats.output_tokens), tokensScope: 'run', costUsd: null, costScope: 'run' });
        const ok = m.status === 'success';
        const error = (m.error ?? null) as { message?: unknown } | null;
        out.push({ kind: 'result', ok, error: ok ? null : preview(String(error?.message ?? 'the run failed'), 1_000), ...(this.lostAnswer ? { lostAnswer: this.lostAnswer } : {}) });
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
