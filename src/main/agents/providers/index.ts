// The agent CLIs the app can run, and where each is installed on this machine.
import type { ProviderId } from '../../../shared/model/managedAgents';
import { findOnPath } from '../../setup/detect';
import type { Provider } from '../types';
import { claudeCode } from './claudeCode';
import { codex } from './codex';
import { copilot } from './copilot';
import { gemini } from './gemini';
import { opencode } from './opencode';

export const PROVIDERS: Readonly<Record<ProviderId, Provider>> = { claude_code: claudeCode, codex, gemini, opencode, copilot };

export function providerOf(id: ProviderId): Provider {
  return PROVIDERS[id];
}

/** The provider's executable on the person's PATH; null when it is not installed. */
export function locateProvider(provider: Provider, env: NodeJS.ProcessEnv): Promise<string | null> {
  return findOnPath(provider.executable, { platform: process.platform, env });
}
