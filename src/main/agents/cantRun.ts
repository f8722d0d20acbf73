// Why a managed agent's CLI cannot run, for reasons only the person can fix (not signed in,
// the CLI missing or broken, a used-up quota or rate limit, a model the provider does not
// know, folder settings the CLI would obey whatever the app says): the words the card and `agent list` show ("Claude Code is not signed in") and the
// exact fix, naming the CLI the app found by its full path. Until the person resumes the
// agent it takes no turns: retrying would only fail the same way.
import { signInCommand } from './signInCheck';
import type { CantRunCause, Provider } from './types';

export type { CantRunCause };

export interface CantRun {
  readonly cause: CantRunCause;
  /** After "Can't run: ", e.g. "Claude Code is not signed in". */
  readonly reason: string;
  /** What the person does, with the command to run. */
  readonly fix: string;
  /** What the CLI said, for the activity log and the Needs-you item. */
  readonly detail: string;
}

export interface CantRunContext {
  /** The CLI the app found (full path); null when none was found. */
  readonly command: string | null;
  /** The agent's model; null: the provider's default. */
  readonly model: string | null;
  readonly detail: string;
  /** For folder_settings: the files to remove. */
  readonly files?: readonly string[];
}

export function cantRunOf(provider: Provider, cause: CantRunCause, ctx: CantRunContext): CantRun {
  const cli = ctx.command ?? provider.executable;
  const then = ' Then press Resume on the agent (or run `letagents-desktop agent resume NAME`).';
  const missingEnv = /Missing environment variable: `?([A-Za-z_][A-Za-z0-9_]*)`?/.exec(ctx.detail)?.[1];
  switch (cause) {
    case 'not_signed_in':
      return {
        cause,
        reason: `${provider.name} is not signed in`,
        fix: missingEnv
          ? `Set ${missingEnv} in the environment the app starts with (${provider.name} at ${cli} reads it), and restart the app.${then}`
          : `Sign in: run \`${signInCommand(provider, cli)}\` in a terminal as the person the app runs as.${then}`,
        detail: ctx.detail,
      };
    case 'cli_missing':
      return { cause, reason: `${provider.name} is not installed`, fix: `${provider.installHint} It must be on the PATH the app started with.${then}`, detail: ctx.detail };
    case 'cli_broken':
      return {
        cause,
        reason: `${provider.name} does not start`,
        fix: `Run \`${cli} --version\` in a terminal to see what is wrong; reinstall it if needed (${provider.installHint})${then}`,
        detail: ctx.detail,
      };
    case 'quota':
      return {
        cause,
        reason: `${provider.name} reached its usage or rate limit`,
        fix: `Check the plan and usage of the account ${provider.name} (${cli}) is signed in with, or wait until the limit resets.${then}`,
        detail: ctx.detail,
      };
    case 'model_not_found':
      return {
        cause,
        reason: `${provider.name} does not know the model ${ctx.model ?? 'it was given'}`,
        fix: `Remove the agent and add it again with a model ${provider.name} offers (or none, for its default).`,
        detail: ctx.detail,
      };
    case 'folder_settings':
      return {
        cause,
        reason: `${provider.name} would obey this folder's own settings`,
        fix: `Remove or rename ${(ctx.files ?? []).join(', ')} (or add the agent with another folder or CLI).${then}`,
        detail: ctx.detail,
      };
  }
}

/** The stored form (managed_agents.cant_run_json); null for anything unreadable. */
export function parseCantRun(json: string | null): CantRun | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as CantRun;
    return typeof value.reason === 'string' && typeof value.fix === 'string' ? value : null;
  } catch {
    return null;
  }
}
