// The agent token: a random secret in `<dataDir>/agent-token` (mode 0600, folder 0700)
// that the stdio helper proves it knows in its handshake and HTTP clients send as a bearer token.
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { agentTokenPath } from '../paths';
import { prepareDataFolder } from '../store/dataFolder';
import { sameSecret } from '../../shared-node/handshake';

const TOKEN_BYTES = 32;

/** Creates the token file if missing (and tightens modes), then returns the token. */
export function ensureAgentToken(dataDir: string): string {
  prepareDataFolder(dataDir);
  const path = agentTokenPath(dataDir);
  const existing = readAgentToken(dataDir);
  if (existing) {
    if (process.platform !== 'win32') chmodSync(path, 0o600);
    return existing;
  }
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  try {
    // 'wx': if another process created it meanwhile, theirs wins and we read it.
    writeFileSync(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const raced = readAgentToken(dataDir);
    if (raced) return raced;
    // An empty file (e.g. a crash between create and write): replace it.
    writeFileSync(path, `${token}\n`, { mode: 0o600 });
    if (process.platform !== 'win32') chmodSync(path, 0o600);
  }
  return token;
}

/** The token, or null when the file is missing or empty. */
export function readAgentToken(dataDir: string): string | null {
  try {
    const text = readFileSync(agentTokenPath(dataDir), 'utf8').trim();
    return text.length > 0 ? text : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Compares two secrets in time that does not depend on where they differ (or their lengths). */
export const tokensEqual = sameSecret;
