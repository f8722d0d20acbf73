// Creating a folder and its missing parents. Not `mkdirSync(dir, { recursive: true })`:
// Node's recursive mkdir retries forever (100% CPU, no output) where mkdir answers ENOENT
// although the parent exists, as in /proc or /sys. This walks up once and fails at once.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** Makes `dir` and its missing parents with `mode`; throws the file system's error when one cannot be made. */
export function makeFolders(dir: string, mode = 0o700): void {
  try {
    mkdirSync(dir, { mode });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return; // a folder (or a file: the caller's checks say which)
    const parent = dirname(dir);
    // The parent is there, yet the folder cannot be made in it: nothing to walk up to.
    if (code !== 'ENOENT' || parent === dir || existsSync(parent)) throw error;
    makeFolders(parent, mode);
  }
  mkdirSync(dir, { mode });
}
