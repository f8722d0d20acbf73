// The agent CLIs the app can run: the one list. Their ids, names, permission choices and the
// names `agent add --provider` takes all come from here (the database takes any id the app
// accepts, so a new CLI needs no migration). Adding one: docs/development.md.
import { appErrors } from '../../domain/errors';
import { findOnPath } from '../../setup/detect';
import type { Provider } from '../types';
import { claudeCode } from './claudeCode';
import { codex } from './codex';
import { copilot } from './copilot';
import { gemini } from './gemini';
import { opencode } from './opencode';

/** In the order the app lists them (Add agent, `agents.providers`). */
export const PROVIDER_LIST = [claudeCode, codex, gemini, opencode, copilot] as const;

/** A provider of the list, its id typed as one of theirs. */
export type KnownProvider = (typeof PROVIDER_LIST)[number];
export type ProviderId = KnownProvider['id'];

export const PROVIDERS = Object.fromEntries(PROVIDER_LIST.map((p) => [p.id, p])) as Readonly<Record<ProviderId, KnownProvider>>;

export function isProviderId(id: string): id is ProviderId {
  return Object.hasOwn(PROVIDERS, id);
}

/** The provider of an id; an id this app does not know is bad input (a clear error). */
export function providerOf(id: string): KnownProvider {
  if (isProviderId(id)) return PROVIDERS[id];
  throw appErrors.invalidInput(`"${id}" is not an agent CLI this app runs: use one of ${PROVIDER_LIST.map((p) => p.id).join(', ')}.`);
}

/** What people see for a stored agent's provider: its name, or the id itself if this app no longer knows it. */
export function providerName(id: string): string {
  return isProviderId(id) ? PROVIDERS[id].name : id;
}

/** The names `agent add --provider` takes for it: its id, the id with "-" for "_" (claude-code) and its aliases, sorted. */
export function cliNamesOf(provider: Provider): string[] {
  return [...new Set([provider.id, provider.id.replaceAll('_', '-'), ...(provider.aliases ?? [])])].sort();
}

/** The provider's executable on the person's PATH; null when it is not installed. */
export function locateProvider(provider: Provider, env: NodeJS.ProcessEnv): Promise<string | null> {
  return findOnPath(provider.executable, { platform: process.platform, env });
}
