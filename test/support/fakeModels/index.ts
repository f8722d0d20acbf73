// Fake model servers for the real Claude Code and Codex CLIs (the model is the only part of
// a managed turn that lives outside this machine), and the home folder each CLI runs with.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeAnthropic } from './anthropic';
import type { FakeModelServer } from './http';
import { codexConfigFor, startFakeOpenAi } from './openai';
import { ModelScript } from './script';

export { ModelScript, callBuiltInTool, callTool, gate, identityIn, replyInRoom, say, type ModelRequest, type ModelStep } from './script';
export { ANTHROPIC_USAGE } from './anthropic';
export { OPENAI_USAGE } from './openai';
export type { FakeModelServer } from './http';

export type FakeProvider = 'claude_code' | 'codex';

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
  const server = provider === 'claude_code' ? await startFakeAnthropic(script) : await startFakeOpenAi(script);
  if (provider === 'codex') {
    mkdirSync(join(home, '.codex'), { recursive: true });
    writeFileSync(join(home, '.codex', 'config.toml'), codexConfigFor(server));
  }
  return { provider, script, server, env: { ...server.env, HOME: home }, close: server.close };
}
