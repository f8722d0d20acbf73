// Is the provider's CLI, the one the app would run, signed in? Asked offline with the CLI's own
// status command (Claude Code 2.1: `claude auth status` prints JSON with "loggedIn" and exits 1
// when not signed in; Codex 0.171: `codex login status` prints "Not logged in" and exits 1). When
// an agent is added, a warning only: the person may sign in afterwards. Before each turn of a CLI
// whose unsigned turn does not fail by itself (Codex), the answer decides whether it runs.
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

/**
 * What the CLI's own status command says: signed in (true), not (false), or null when it cannot
 * tell or its sign-in does not apply (another model provider); `said` is its output, for the log.
 */
export async function signInState(provider: Provider, command: string, env: NodeJS.ProcessEnv, home: string): Promise<{ signedIn: boolean | null; said: string }> {
  const status = provider.signInStatus;
  if (!status || status.applies?.(env, home) === false) return { signedIn: null, said: '' };
  const output = await new Promise<StatusOutput | null>((resolve) => {
    execFile(command, [...status.args], { env, cwd: home, timeout: STATUS_TIME_LIMIT_MS, windowsHide: true }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve(code === null && error ? null : { code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
  if (!output) return { signedIn: null, said: '' };
  // Codex prints a warning about its PATH aliases first; the status is its last line.
  const said = `${output.stdout}\n${output.stderr}`.trim().split('\n').filter((line) => !/^WARNING:/.test(line)).join(' ').trim();
  return { signedIn: status.signedIn(output), said };
}

/** The warning to show when `command` (the CLI on the app's PATH) says it is not signed in; null otherwise or when it cannot tell. */
export async function signInWarning(provider: Provider, command: string, env: NodeJS.ProcessEnv, home: string): Promise<string | null> {
  if ((await signInState(provider, command, env, home)).signedIn !== false) return null;
  return (
    `${provider.name} at ${command} (found on the app's PATH) is not signed in, so its turns would fail. ` +
    `Run \`${signInCommand(provider, command)}\` in a terminal as the person the app runs as. You can add the agent now and sign in afterwards.`
  );
}
