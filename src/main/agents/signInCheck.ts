// Before any turn: is the provider's CLI, the one the app would run, signed in? Asked
// offline with the CLI's own status command (Claude Code 2.1: `claude auth status` prints
// JSON with "loggedIn" and exits 1 when not signed in; Codex 0.171: `codex login status`
// prints "Not logged in" and exits 1). A warning only: the person may sign in afterwards.
import { execFile } from 'node:child_process';
import type { Provider } from './types';

const STATUS_TIME_LIMIT_MS = 15_000;

export interface StatusOutput {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** What the person runs to sign `cli` in. */
export function signInCommand(provider: Provider, cli: string): string {
  return [cli, ...(provider.loginArgs ?? [])].join(' ');
}

/** The warning to show when `command` (the CLI on the app's PATH) says it is not signed in; null otherwise or when it cannot tell. */
export async function signInWarning(provider: Provider, command: string, env: NodeJS.ProcessEnv, home: string): Promise<string | null> {
  const status = provider.signInStatus;
  if (!status || status.applies?.(env, home) === false) return null;
  const output = await new Promise<StatusOutput | null>((resolve) => {
    execFile(command, [...status.args], { env, cwd: home, timeout: STATUS_TIME_LIMIT_MS, windowsHide: true }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve(code === null && error ? null : { code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
  if (!output || status.signedIn(output) !== false) return null;
  return (
    `${provider.name} at ${command} (found on the app's PATH) is not signed in, so its turns would fail. ` +
    `Run \`${signInCommand(provider, command)}\` in a terminal as the person the app runs as. You can add the agent now and sign in afterwards.`
  );
}
