// Where the app keeps its data (architecture.md §3): --data-dir, else
// LETAGENTS_DESKTOP_DATA_DIR, else the platform's app-data folder for "LetAgents"
// (the folder Electron's app.getPath('userData') gives for productName LetAgents).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const APP_FOLDER_NAME = 'LetAgents';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_FOLDER_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_FOLDER_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_FOLDER_NAME);
}

export function resolveDataDir(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = explicit ?? env.LETAGENTS_DESKTOP_DATA_DIR;
  return chosen ? resolve(chosen) : defaultDataDir(env);
}

export const databasePath = (dataDir: string) => join(dataDir, 'letagents.db');
export const agentTokenPath = (dataDir: string) => join(dataDir, 'agent-token');

/** The agent socket: `agent.sock` in the data dir; on Windows the named pipe the running app recorded (null while none is). */
export { helperSocketPath as agentSocketPath } from '../shared-node/dataPaths';
