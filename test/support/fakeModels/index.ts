// Fake model servers for the real Claude Code, Codex, Gemini CLI, OpenCode and GitHub Copilot CLIs (the model is the only part of
// a managed turn that lives outside this machine), and the home folder each CLI runs with.
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropic } from './anthropic';
import type { FakeModelServer } from './http';
import { geminiSettings, startFakeGemini } from './gemini';
import { codexConfigFor, FAKE_OPENAI_MODEL, opencodeConfigFor, startFakeOpenAi } from './openai';
import { ModelScript } from './script';
import type { ProviderId } from '../../../src/main/agents/providers';

export { ModelScript, answerUnlessAnswered, callBuiltInTool, callTool, cutAtOutputLimit, gate, identityIn, refuse, replyInRoom, say, sayNothingAtAll, worktreeIn, writeInWorktree, type ModelRequest, type ModelStep } from './script';
export { ANTHROPIC_USAGE, RATE_LIMITED, claudeGatewayEnv, usageLimitRefusal } from './anthropic';
export { OPENAI_USAGE } from './openai';
export { GEMINI_USAGE } from './gemini';
export type { FakeModelServer } from './http';

/** A provider whose CLI runs against one of these fakes (its config below points it there). */
export type FakeProvider = ProviderId;

export interface FakeModel {
  readonly provider: FakeProvider;
  readonly script: ModelScript;
  readonly server: FakeModelServer;
  /** What the app's environment needs so its provider CLI uses the fake (and a private HOME). */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** Starts the fake for `provider` and prepares `home` (the CLI's config there points at the fake). */
export async function startFakeModel(provider: FakeProvider, home: string): Promise<FakeModel> {
  const script = new ModelScript();
  const server = provider === 'claude_code' ? await startFakeAnthropic(script) : provider === 'gemini' ? await startFakeGemini(script) : await startFakeOpenAi(script);
  const env: Record<string, string> = { ...server.env, HOME: home };
  if (provider === 'codex') {
    mkdirSync(join(home, '.codex'), { recursive: true });
    writeFileSync(join(home, '.codex', 'config.toml'), codexConfigFor(server));
  }
  if (provider === 'gemini') {
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'settings.json'), geminiSettings());
  }
  if (provider === 'opencode') {
    mkdirSync(join(home, '.config', 'opencode'), { recursive: true });
    writeFileSync(join(home, '.config', 'opencode', 'opencode.json'), opencodeConfigFor(server));
    // models.dev (OpenCode's model list) is off this machine.
    env.OPENCODE_DISABLE_MODELS_FETCH = 'true';
  }
  if (provider === 'copilot') {
    // Copilot's own settings for a model provider of your own (BYOK), offline: no GitHub
    // sign-in, telemetry or update check. Its key is a long one (Copilot masks the key's
    // text wherever it appears in its output).
    Object.assign(env, {
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: `${server.url}/v1`,
      COPILOT_PROVIDER_WIRE_API: 'responses',
      COPILOT_PROVIDER_API_KEY: 'fake-key-for-the-local-fake-model',
      COPILOT_MODEL: FAKE_OPENAI_MODEL,
      // Copilot unpacks itself into its cache on first start (~5 s): one cache for every test home.
      XDG_CACHE_HOME: join(homedir(), '.cache', 'letagents-tests', 'xdg-cache'),
    });
  }
  return { provider, script, server, env, close: server.close };
}
