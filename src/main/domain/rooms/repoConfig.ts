// `.letagents.json` ({"room": "<room id>"}): found from a working directory upward, and
// written at a git root by initialize_repo (data-model.md §2). Only a regular file is read
// (a symlink could point at any file of the person's, e.g. cloud credentials), at most
// 64 KiB, and only its parsed `room` ever leaves this module, never the file's text.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { errors } from '../errors';
import { checkRoomId } from './roomIds';

export const REPO_CONFIG_FILE = '.letagents.json';
/** Directories searched, the working directory included. */
export const REPO_CONFIG_MAX_LEVELS = 50;
// A config file is a few bytes; anything this large is not one and is not read whole.
const MAX_CONFIG_BYTES = 64 * 1024;

/** What check_repo shows of the file (config_contents): its room field, or why it was not read. */
export type RepoConfigContents = { room: string | null } | typeof PARSE_ERROR | typeof SYMLINK_REFUSED;
export const PARSE_ERROR = '<parse error>';
export const SYMLINK_REFUSED = '<symlink refused>';

export interface RepoConfig {
  path: string;
  /** The configured room, trimmed; null when the file has no valid non-empty `room`. */
  room: string | null;
  contents: RepoConfigContents;
}

/**
 * The nearest `.letagents.json` from `cwd` upward (at most 50 directories), or null.
 * A file without a valid room is returned with `room: null` (and logged) so that callers
 * ignore its room but can still report and respect the file.
 */
export function findRepoConfig(cwd: string): RepoConfig | null {
  let dir = resolve(cwd);
  for (let level = 0; level < REPO_CONFIG_MAX_LEVELS; level++) {
    const config = readRepoConfigAt(dir);
    if (config) return config;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
  return null;
}

/** The `.letagents.json` directly in `dir`, or null when there is none (or it is not a file). */
export function readRepoConfigAt(dir: string): RepoConfig | null {
  const path = join(dir, REPO_CONFIG_FILE);
  let kind: 'file' | 'symlink' | 'other';
  try {
    const stat = lstatSync(path);
    kind = stat.isSymbolicLink() ? 'symlink' : stat.isFile() ? 'file' : 'other';
  } catch {
    return null;
  }
  if (kind === 'other') return null;
  if (kind === 'symlink') {
    console.warn(`Ignoring ${path}: it is a symbolic link, and only a regular file is read.`);
    return { path, room: null, contents: SYMLINK_REFUSED };
  }
  const text = readSmallFile(path);
  if (text === null) return { path, room: null, contents: PARSE_ERROR };
  const parsed = parseConfig(text);
  if (parsed === null || parsed.room === null) console.warn(`Ignoring ${path}: it has no valid non-empty "room".`);
  return { path, room: parsed?.room ?? null, contents: parsed ?? PARSE_ERROR };
}

/** The file's text when it is (still) a regular file of at most 64 KiB; null otherwise. */
function readSmallFile(path: string): string | null {
  let fd: number;
  try {
    // No following a link swapped in since the lstat; no hanging on a FIFO.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    console.warn(`Ignoring ${path}: cannot read it (${(error as Error).message}).`);
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_CONFIG_BYTES) {
      console.warn(`Ignoring ${path}: not a regular file of at most ${MAX_CONFIG_BYTES} bytes.`);
      return null;
    }
    const buffer = Buffer.alloc(stat.size);
    const read = readSync(fd, buffer, 0, stat.size, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The parsed room field of a JSON object (null when missing or invalid); null when the text is no JSON object. */
function parseConfig(contents: string): { room: string | null } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(contents);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const room = (parsed as { room?: unknown }).room;
  if (typeof room !== 'string') return { room: null };
  try {
    return { room: checkRoomId(room) };
  } catch {
    return { room: null };
  }
}

/** Writes `{"room": room}` at `root`; R8 when the file already exists (it is never overwritten). */
export function writeRepoConfig(root: string, room: string): string {
  const path = join(resolve(root), REPO_CONFIG_FILE);
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw errors.R8(path);
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify({ room }, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  return path;
}
