// The helper's copy of the data-folder paths (src/main/paths.ts): the helper may not
// import the core, so it repeats these few lines; a test checks both agree. Where the
// app listens is defined here only (the core reads it from here too).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function helperDataDir(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const chosen = explicit ?? env.LETAGENTS_DESKTOP_DATA_DIR;
  if (chosen) return resolve(chosen);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'LetAgents');
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'LetAgents');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'LetAgents');
}

export const helperTokenPath = (dataDir: string) => join(dataDir, 'agent-token');

/** Where the background app started by the helper writes its output. */
export const backgroundLogPath = (dataDir: string) => join(dataDir, 'app-background.log');

/**
 * Written by the app when it stops on purpose (`letagents-desktop stop`, Quit, Ctrl-C, idle),
 * with the reason; removed when it starts. Helpers that lost the app start it again only when
 * this is absent (a crash): a stopped app stays stopped until a person or a new agent starts it.
 */
export const appStoppedPath = (dataDir: string) => join(dataDir, 'app-stopped');

/** The reason the app stopped on purpose, or null when it did not (it runs, or it crashed). */
export function readAppStopped(dataDir: string): string | null {
  try {
    return readFileSync(appStoppedPath(dataDir), 'utf8').trim() || 'stopped';
  } catch {
    return null;
  }
}

/** Windows: the file naming the running app's named pipe (random, new at every start). */
export const pipeNamePath = (dataDir: string) => join(dataDir, 'agent-pipe');

const PIPE_NAME_SHAPE = /^\\\\\.\\pipe\\letagents-desktop-[0-9a-f]{32}$/;

/** The pipe named in `agent-pipe`; null when there is none or it is not one of ours (never a remote path). */
export function readPipeName(dataDir: string): string | null {
  try {
    const name = readFileSync(pipeNamePath(dataDir), 'utf8').trim();
    return PIPE_NAME_SHAPE.test(name) ? name : null;
  } catch {
    return null;
  }
}

export const unixSocketPath = (dataDir: string) => join(dataDir, 'agent.sock');

/** The agent socket: `agent.sock` in the data dir; on Windows the named pipe the app recorded (null while none is). */
export function helperSocketPath(dataDir: string, platform = process.platform): string | null {
  return platform === 'win32' ? readPipeName(dataDir) : unixSocketPath(dataDir);
}
