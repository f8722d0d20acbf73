// Room ids (data-model.md §2): invite codes, repo ids normalised from git remotes, named
// rooms, and the room id rule every kind must pass.
import { randomInt } from 'node:crypto';
import { errors } from '../errors';

export type RoomKind = 'invite' | 'repo' | 'named';

export const INVITE_CODE_PATTERN = /^[A-Z0-9]{4}(-[A-Z0-9]{4})+$/;
export const MAX_ROOM_ID_CHARS = 512;

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const CONTROL_CHAR = /\p{Cc}/u;

/** True when `input`, trimmed and upper-cased, has the shape of an invite code. */
export function isInviteShaped(input: string): boolean {
  return INVITE_CODE_PATTERN.test(input.trim().toUpperCase());
}

/** Trims and upper-cases a join code; R5 when it does not look like `ABCX-7291`. */
export function parseInviteCode(input: string): string {
  const code = input.trim().toUpperCase();
  if (!INVITE_CODE_PATTERN.test(code)) throw errors.R5();
  return code;
}

/** A fresh code of 2 groups of 4 from A–Z0–9 that `isTaken` does not reject. */
export async function generateInviteCode(isTaken: (code: string) => Promise<boolean>): Promise<string> {
  for (;;) {
    // 36^8 codes: a clash is rare enough that retrying is the whole strategy.
    const chars = Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]);
    const code = `${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
    if (!(await isTaken(code))) return code;
  }
}

/** Applies the room id rule: 1–512 characters after trimming, no control characters (R6). */
export function checkRoomId(input: string): string {
  const id = input.trim();
  const length = [...id].length;
  if (length < 1 || length > MAX_ROOM_ID_CHARS || CONTROL_CHAR.test(id)) throw errors.R6();
  return id;
}

const SCP_LIKE = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/;
const URL_LIKE = /^(?:ssh|git\+ssh|ssh\+git|git|https?):\/\//i;

/** True when `value` is written like a git remote URL (scp-like or with a git scheme). */
export function looksLikeGitRemote(value: string): boolean {
  const v = value.trim();
  return URL_LIKE.test(v) || (SCP_LIKE.test(v) && !v.includes('://') && v.includes('@'));
}

/**
 * `git@host:owner/repo(.git)`, `ssh://git@host/owner/repo(.git)` and
 * `https://host/owner/repo(.git)` become `host/owner/repo`. User info and ports are
 * dropped (ssh and https of one repo must give one room, and a token in a URL must never
 * become a room id). Null when no host and owner/repo path can be found.
 */
export function normalizeGitRemote(url: string): string | null {
  const value = url.trim();
  let host: string;
  let path: string;
  if (URL_LIKE.test(value)) {
    let parsed: URL;
    try {
      parsed = new URL(value.replace(/^(git\+ssh|ssh\+git):/i, 'ssh:'));
    } catch {
      return null;
    }
    host = parsed.hostname;
    path = safeDecode(parsed.pathname);
  } else {
    const match = SCP_LIKE.exec(value);
    if (!match || !value.includes('@')) return null;
    host = match[1];
    path = match[2];
  }
  return joinRepoId(host, path);
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

function joinRepoId(rawHost: string, rawPath: string): string | null {
  const host = rawHost.toLowerCase().replace(/^\[|\]$/g, '');
  const segments = rawPath
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .split('/')
    .filter((s) => s !== '');
  if (!host || segments.length < 2) return null;
  const id = [host, ...segments].join('/');
  return host === 'github.com' ? id.toLowerCase() : id;
}

export interface ClassifiedRoomName {
  kind: RoomKind;
  roomId: string;
}

/**
 * How `join_room` reads a name: invite-shaped names are codes; remote URLs and names whose
 * first segment is github.com are repo ids; anything else is a named room, trimmed.
 * Throws R6 when the resulting id breaks the room id rule, and R13 for a name written as a
 * repository that names none (`github.com/acme`, a remote URL without owner/repo): such a
 * typo would otherwise quietly become a named room beside the real one.
 */
export function classifyRoomName(name: string): ClassifiedRoomName {
  const trimmed = checkRoomId(name);
  if (isInviteShaped(trimmed)) return { kind: 'invite', roomId: trimmed.toUpperCase() };
  if (looksLikeGitRemote(trimmed)) {
    const repo = normalizeGitRemote(trimmed);
    if (!repo) throw errors.R13(trimmed);
    return { kind: 'repo', roomId: checkRoomId(repo) };
  }
  const [first, ...rest] = trimmed.split('/');
  if (first.toLowerCase() === 'github.com') {
    const repo = joinRepoId(first, rest.join('/'));
    if (!repo) throw errors.R13(trimmed);
    return { kind: 'repo', roomId: checkRoomId(repo) };
  }
  return { kind: 'named', roomId: trimmed };
}

/** The default display name: "Room <code>" for invite rooms, the id otherwise. */
export function defaultDisplayName(kind: RoomKind, roomId: string): string {
  return kind === 'invite' ? `Room ${roomId}` : roomId;
}

/** The invite code of an invite room (it is the room id); null for other rooms. */
export function inviteCodeOf(room: { kind: RoomKind; room_id: string }): string | null {
  return room.kind === 'invite' ? room.room_id : null;
}
