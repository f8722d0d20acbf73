// The data folder (architecture.md §3, §5): created private (0700), tightened when others
// could read it but never loosened, and refused with a clear message when the app may not
// write to it. Nothing is created in a folder that is refused.
import { accessSync, chmodSync, constants, existsSync, mkdtempSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeFolders } from '../../shared-node/folders';

export class DataFolderError extends Error {
  readonly code = 'data_folder';
  constructor(message: string) {
    super(message);
    this.name = 'DataFolderError';
  }
}

const CHOOSE_ANOTHER = 'or choose another folder with --data-dir or LETAGENTS_DESKTOP_DATA_DIR.';

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a file is in the way';
  if (code === 'ENOENT') return 'the system allows no new folders there';
  return error instanceof Error ? error.message : String(error);
}

/** Makes sure `dir` exists, is writable by this app, and is not open to others. */
export function prepareDataFolder(dir: string): void {
  try {
    makeFolders(dir);
  } catch (error) {
    throw new DataFolderError(`Cannot create the data folder ${dir}: ${reason(error)}. Make its parent folder writable, ${CHOOSE_ANOTHER}`);
  }
  if (!statSync(dir).isDirectory()) throw new DataFolderError(`The data folder ${dir} is a file, not a folder. Move it away, ${CHOOSE_ANOTHER}`);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch {
    throw new DataFolderError(
      `The data folder ${dir} is read-only: LetAgents keeps its database, agent socket and agent-token there ` +
        `and must be able to write to it. Make it writable, ${CHOOSE_ANOTHER}`,
    );
  }
  if (process.platform === 'win32') return;
  // Tighten, never loosen: a folder the person made stricter than 0700 stays so.
  const mode = statSync(dir).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  try {
    chmodSync(dir, mode & 0o700);
  } catch (error) {
    throw new DataFolderError(`Cannot make the data folder ${dir} private (mode 0700): ${reason(error)}. Make it yours, ${CHOOSE_ANOTHER}`);
  }
}

/**
 * Why `dir`, which does not exist yet, could not be created; null when it could. Tries
 * with a probe folder in its nearest existing parent, removed at once (the doctor's check).
 */
export function folderCreationProblem(dir: string): string | null {
  let parent = dirname(dir);
  while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  try {
    rmdirSync(mkdtempSync(join(parent, '.letagents-probe-')));
    return null;
  } catch (error) {
    return `${dir} cannot be created: ${reason(error)} (in ${parent}).`;
  }
}
