// Reads and rewrites one agent config file safely: the new text goes to a temp file in the
// same folder and is renamed over the old one, keeping its mode. A symlink stays a link (the
// file behind it is written, even one that does not exist yet), and a file with other hard
// links is rewritten in place so they all keep seeing it. The previous text is kept as
// `<file>.letagents-backup` (the two before it as .1 and .2; older ones go). Nothing is
// written when the text would not change.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { setupErrors } from './setupErrors';

export const BACKUP_SUFFIX = '.letagents-backup';
/** Backups kept per config file: the newest at BACKUP_SUFFIX, then .1 and .2. */
export const BACKUPS_KEPT = 3;
const MAX_LINK_HOPS = 40;

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
    const target = await linkTarget(file);
    const before = await readConfigText(target);
    const after = edit(before);
    if (after === null || after === before) return { changed: false, backupPath: null };
    const stat = before === null ? null : await fs.stat(target);
    const mode = stat ? stat.mode & 0o7777 : null;
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Renaming over a file with other hard links would leave them with the old text.
    const inPlace = stat !== null && stat.nlink > 1;
    const temp = inPlace ? null : await writeTemp(target, after, mode);
    try {
      if ((await readConfigText(target)) !== before) continue;
      const backupPath = before === null ? null : await keepBackup(file, before, mode);
      if (temp) await replaceFile(temp, target);
      else await writeInPlace(target, after);
      return { changed: true, backupPath };
    } finally {
      if (temp) await fs.rm(temp, { force: true });
    }
  }
  throw setupErrors.busy(file);
}

/** Shifts the backups one along (the oldest goes) and writes `text` as the newest. */
async function keepBackup(file: string, text: string, mode: number | null): Promise<string> {
  const name = (n: number) => (n === 0 ? file + BACKUP_SUFFIX : `${file}${BACKUP_SUFFIX}.${n}`);
  for (let n = BACKUPS_KEPT - 1; n > 0; n--) {
    try {
      await fs.rename(name(n - 1), name(n));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
  await replaceFile(await writeTemp(name(0), text, mode), name(0));
  return name(0);
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

/** Rewrites the file itself (same inode), for a file with other hard links. */
async function writeInPlace(target: string, text: string): Promise<void> {
  const handle = await fs.open(target, 'r+');
  try {
    await handle.truncate(0);
    await handle.write(text, 0, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
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

/** The file a chain of symlinks ends at, whether it exists or not (so the links stay links); the path itself otherwise. */
async function linkTarget(file: string): Promise<string> {
  let current = file;
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    try {
      if (!(await fs.lstat(current)).isSymbolicLink()) return current;
    } catch (error) {
      if (isMissing(error)) return current;
      throw error;
    }
    current = path.resolve(path.dirname(current), await fs.readlink(current));
  }
  throw setupErrors.unsupported(file, `it is a chain of more than ${MAX_LINK_HOPS} symbolic links`);
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}
