// Sorting PostgreSQL and socket errors into what the adapter does about them: retry the
// write (serialization failure, deadlock), report the team offline (connection lost), or
// report a unique violation in the port's shape.
import { UniqueViolationError } from '../storageErrors';

interface PgErrorLike {
  code?: string;
  message?: string;
  table?: string;
  detail?: string;
  constraint?: string;
}

const SERIALIZATION_CODES = new Set(['40001', '40P01']);
// Class 08 (connection exception), and the server shutting down or starting up.
const CONNECTION_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOENT']);
// pg reports a dropped or unusable connection with plain Errors carrying only these messages.
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'the database system is',
];

export function isSerializationFailure(error: unknown): boolean {
  return SERIALIZATION_CODES.has((error as PgErrorLike | null)?.code ?? '');
}

/** PostgreSQL's own unique_violation (not yet in the port's shape). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as PgErrorLike | null)?.code === '23505';
}

export function isConnectionError(error: unknown): boolean {
  const e = error as PgErrorLike | null;
  const code = e?.code ?? '';
  if (code.startsWith('08') || CONNECTION_CODES.has(code) || SOCKET_CODES.has(code)) return true;
  if (code !== '' && /^[0-9A-Z]{5}$/.test(code)) return false;
  const message = e?.message ?? '';
  return CONNECTION_MESSAGES.some((m) => message.includes(m));
}

/** A short reason for people: the socket error or the server's message, never the URL. */
export function connectionReason(error: unknown): string {
  const e = error as PgErrorLike | null;
  if (e?.code && SOCKET_CODES.has(e.code)) return `${e.code}: cannot reach the database server`;
  return e?.message?.split('\n')[0] ?? String(error);
}

// "Key (room_id, name_key)=(r, ada) already exists."
const KEY_DETAIL = /^Key \((.+?)\)=/;

/** Unique violations (23505) as the port's UniqueViolationError; other errors unchanged. */
export function portError(error: unknown): unknown {
  const e = error as PgErrorLike | null;
  if (e?.code !== '23505' || !e.table) return error;
  const columns = KEY_DETAIL.exec(e.detail ?? '')?.[1].split(',').map((c) => c.trim().replace(/^"|"$/g, '')) ?? [];
  return new UniqueViolationError(e.table, columns, error);
}
