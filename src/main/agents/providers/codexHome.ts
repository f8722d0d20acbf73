// A managed Codex turn's own CODEX_HOME (one per agent, in its private folder): the person's
// sign-in (auth.json, linked so a token refresh reaches their own file) and only the settings
// that pick the model and how to reach it. Nothing that runs a command comes along: no
// `notify`, no hooks or their trust, no MCP servers, no trusted projects (so a folder's
// `.codex/` config, hooks and exec policies stay off), no model-provider auth commands.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parse, stringify } from 'smol-toml';
import type { AgentPermissions } from '../../../shared/model/managedAgents';

/** Top-level settings that choose and reach the model. */
const MODEL_KEYS = [
  'model', 'model_provider', 'model_reasoning_effort', 'model_reasoning_summary', 'model_verbosity', 'model_context_window',
  'model_auto_compact_token_limit', 'service_tier', 'openai_base_url', 'chatgpt_base_url', 'forced_login_method',
  'forced_chatgpt_workspace_id', 'cli_auth_credentials_store', 'preferred_auth_method',
];
/** The person's own sandbox choice, kept only for "what my provider settings allow". */
const SANDBOX_KEYS = ['sandbox_mode', 'approval_policy', 'sandbox_workspace_write', 'default_permissions', 'permissions'];
/** What a model provider entry may say (an `auth` command, for one, is left out). */
const PROVIDER_KEYS = [
  'name', 'base_url', 'env_key', 'env_key_instructions', 'wire_api', 'query_params', 'http_headers', 'env_http_headers',
  'request_max_retries', 'stream_max_retries', 'stream_idle_timeout_ms', 'requires_openai_auth', 'supports_websockets',
];

export interface CodexHome {
  readonly dir: string;
  readonly config: string;
  /** The person's auth.json, when they have one (ChatGPT or API-key sign-in). */
  readonly auth: string | null;
}

/** The person's CODEX_HOME: theirs from the environment, else ~/.codex. */
export function personCodexHome(env: NodeJS.ProcessEnv, home: string): string {
  return env.CODEX_HOME || join(home, '.codex');
}

export function managedCodexHome(agentDir: string, personHome: string, permissions: AgentPermissions): CodexHome {
  const auth = join(personHome, 'auth.json');
  return { dir: join(agentDir, 'codex-home'), config: filteredConfig(personHome, permissions), auth: existsSync(auth) ? auth : null };
}

/** The person's Codex config.toml; null when there is none or it does not parse (Codex reports that itself). */
export function personCodexConfig(personHome: string): Record<string, unknown> | null {
  try {
    return parse(readFileSync(join(personHome, 'config.toml'), 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function filteredConfig(personHome: string, permissions: AgentPermissions): string {
  const doc = personCodexConfig(personHome);
  if (!doc) return ''; // none, or broken: Codex runs on its defaults
  const keep = permissions === 'provider_default' ? [...MODEL_KEYS, ...SANDBOX_KEYS] : MODEL_KEYS;
  const out: Record<string, unknown> = {};
  for (const key of keep) if (doc[key] !== undefined) out[key] = doc[key];
  const providers = doc.model_providers;
  if (providers && typeof providers === 'object') {
    out.model_providers = Object.fromEntries(
      Object.entries(providers as Record<string, unknown>)
        .filter(([, entry]) => entry && typeof entry === 'object')
        .map(([name, entry]) => [name, pick(entry as Record<string, unknown>, PROVIDER_KEYS)]),
    );
  }
  return stringify(out);
}

const pick = (value: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.filter((k) => value[k] !== undefined).map((k) => [k, value[k]]));

/**
 * Where Codex itself is installed: its sandbox re-runs the Codex binary, so a sandbox that
 * reads only the folder must still read this. npm installs keep the binary in a sibling
 * package (`@openai/codex-<platform>`), so their whole `@openai` folder is given.
 */
export function codexInstallDir(command: string): string {
  let real = command;
  try {
    real = realpathSync(command);
  } catch {
    // keep the path as found
  }
  const pkg = dirname(dirname(real));
  return basename(real) === 'codex.js' && basename(pkg) === 'codex' && basename(dirname(pkg)) === '@openai' ? dirname(pkg) : dirname(real);
}
