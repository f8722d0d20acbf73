// Where a folder keeps agent settings a CLI obeys whatever the app passes it (OpenCode's
// plugins, Gemini CLI's project settings and .env): the app finds them before each turn and
// does not start the CLI while any is there (the agent "can't run" until the person removes
// them). The person's home folder holds their own settings, never counted here.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * `names` (paths relative to a folder) that exist in `folder` — and, with `above`, in every
 * folder above it up to the root, as the CLI looks for them — except in the home folder.
 */
export function folderSettingsFiles(folder: string, home: string, names: readonly string[], above: boolean): string[] {
  const found: string[] = [];
  const ownHome = resolve(home);
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    if (dir !== ownHome) for (const name of names) if (existsSync(join(dir, name))) found.push(join(dir, name));
    if (!above || dirname(dir) === dir) return found;
  }
}
