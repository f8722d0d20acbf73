// `.letagents.json` ({"room": "<room id>"}): found from a working directory upward, and
// written at a git root by initialize_repo (data-model.md §2).
import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { errors } from '../errors';
import { checkRoomId } from './roomIds';

export const REPO_CONFIG_FILE = '.letagents.json';
/** Directories searched, the working directory included. */
export const REPO_CONFIG_MAX_LEVELS = 50;
// A config file is a few bytes; anything this large is not one and is not read whole.
const MAX_CONFIG_BYTES = 64 * 1024;

export interface RepoConfig {
  path: string;
  /** The configured room, trimmed; null when the file has no valid non-empty `room`. */
  room: string | null;
  /** The file as read, for check_repo's config_contents. */
  rawContents: string;
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

/** The `.letagents.json` directly in `dir`, or null when there is none. */
export function readRepoConfigAt(dir: string): RepoConfig | null {
  const path = join(dir, REPO_CONFIG_FILE);
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return null;
    size = stat.size;
  } catch {
    return null;
  }
  if (size > MAX_CONFIG_BYTES) {
    console.warn(`Ignoring ${path}: larger than ${MAX_CONFIG_BYTES} bytes.`);
    return { path, room: null, rawContents: '' };
  }
  let rawContents: string;
  try {
    rawContents = readFileSync(path, 'utf8');
  } catch (error) {
    console.warn(`Ignoring ${path}: cannot read it (${(error as Error).message}).`);
    return { path, room: null, rawContents: '' };
  }
  const room = roomFromContents(rawContents);
  if (room === null) console.warn(`Ignoring ${path}: it has no valid non-empty "room".`);
  return { path, room, rawContents };
}

function roomFromContents(contents: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(contents);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const room = (parsed as { room?: unknown }).room;
  if (typeof room !== 'string') return null;
  try {
    return checkRoomId(room);
  } catch {
    return null;
  }
}

/** True when `contents` is JSON at all; check_repo reports "<parse error>" otherwise. */
export function isParsableConfig(contents: string): boolean {
  try {
    JSON.parse(contents);
    return true;
  } catch {
    return false;
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
