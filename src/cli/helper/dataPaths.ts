// The helper's copy of the data-folder paths (src/main/paths.ts): the helper may not
// import the core, so it repeats these few lines; a test checks both agree.
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

export function helperSocketPath(dataDir: string, platform = process.platform): string {
  if (platform === 'win32') {
    const tag = Buffer.from(resolve(dataDir).toLowerCase()).toString('base64url').slice(-40);
    return `\\\\.\\pipe\\letagents-desktop-${tag}`;
  }
  return join(dataDir, 'agent.sock');
}
