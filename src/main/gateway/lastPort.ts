// The HTTP port `serve` had last time for a data folder, kept in the folder (`ui-port`,
// 0600): the next start tries it first, so a browser tab left open finds the app again at
// the same address (and its session cookie, which is per host, is renewed by the next link).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const lastPortPath = (dataDir: string) => join(dataDir, 'ui-port');

/** The remembered port; null when none is remembered or the file holds no port. */
export function readLastPort(dataDir: string): number | null {
  let text: string;
  try {
    text = readFileSync(lastPortPath(dataDir), 'utf8').trim();
  } catch {
    return null;
  }
  const port = Number(text);
  return /^\d{1,5}$/.test(text) && port >= 1 && port <= 65535 ? port : null;
}

/** Remembers `port`; a folder that cannot take the file only loses the convenience. */
export function rememberPort(dataDir: string, port: number): void {
  const path = lastPortPath(dataDir);
  try {
    writeFileSync(path, `${port}\n`, { mode: 0o600 });
    if (process.platform !== 'win32') chmodSync(path, 0o600);
  } catch (error) {
    console.warn(`serve: could not remember port ${port} in ${path}: ${(error as Error).message}`);
  }
}
