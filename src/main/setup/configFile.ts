// Reads and rewrites one agent config file safely: the new text goes to a temp file in the same
// folder and is renamed over the old one (keeping its mode, and following a symlink so dotfile
// links survive); the previous text is kept in `<file>.letagents-backup`. Nothing is written
// when the text would not change.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { setupErrors } from './setupErrors';

export const BACKUP_SUFFIX = '.letagents-backup';

export interface FileChange {
  changed: boolean;
  backupPath: string | null;
}

/** The file's text, or null when it does not exist. */
export async function readConfigText(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * Applies `edit` (current text, or null for no file, to the new text; null or the same text
 * means "no change") and writes the result.
 * `edit` throws to refuse (e.g. a malformed file): then nothing at all is written. If the file
 * changes on disk while we work (the tool itself saving it), the edit is redone on the new text.
 */
export async function editConfigFile(file: string, edit: (text: string | null) => string | null): Promise<FileChange> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const target = await resolveLink(file);
    const before = await readConfigText(target);
    const after = edit(before);
    if (after === null || after === before) return { changed: false, backupPath: null };
    const mode = before === null ? null : (await fs.stat(target)).mode & 0o7777;
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = await writeTemp(target, after, mode);
    try {
      if ((await readConfigText(target)) !== before) continue;
      let backupPath: string | null = null;
      if (before !== null) {
        backupPath = file + BACKUP_SUFFIX;
        await replaceFile(await writeTemp(backupPath, before, mode), backupPath);
      }
      await replaceFile(temp, target);
      return { changed: true, backupPath };
    } finally {
      await fs.rm(temp, { force: true });
    }
  }
  throw setupErrors.busy(file);
}

async function writeTemp(target: string, text: string, mode: number | null): Promise<string> {
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', mode ?? 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    // Creation applies the umask; an existing file's exact mode is kept.
    if (mode !== null) await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

/** Rename over the target; Windows refuses briefly while another process has the file open. */
async function replaceFile(temp: string, target: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.rename(temp, target);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= 4 || (code !== 'EPERM' && code !== 'EBUSY' && code !== 'EACCES')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
    }
  }
}

/** The real file behind a symlink (so the link stays a link); the path itself otherwise. */
async function resolveLink(file: string): Promise<string> {
  try {
    return await fs.realpath(file);
  } catch (error) {
    if (isMissing(error)) return file;
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}
