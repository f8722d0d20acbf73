// Worker ids, session ids and agent keys (worker-handles.md §1–2, §10). Agent keys are
// public; they are derived so that they never reveal a worker_id, which is a handle.
import { createHash, randomUUID } from 'node:crypto';
import { appErrors } from '../errors';

const sha256hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The derived ids below are worked out again on every tool call (a worker's session id, the
 * implicit identity's key): their hashes, kept. A pure function of its input, so never stale;
 * bounded, dropped whole when full.
 */
const MAX_KEPT = 4_096;
const keptHashes = new Map<string, string>();
function keptSha256hex(text: string): string {
  let hex = keptHashes.get(text);
  if (hex === undefined) {
    if (keptHashes.size >= MAX_KEPT) keptHashes.clear();
    hex = sha256hex(text);
    keptHashes.set(text, hex);
  }
  return hex;
}

const WORKER_ID_SHAPE = /^worker_[0-9a-f]{32}$/;
const WORKER_SESSION_ID_SHAPE = /^local_[0-9a-f]{64}$/;

/** `worker_<32 lowercase hex>`: a UUID v4 without dashes. */
export function newWorkerId(): string {
  return `worker_${randomUUID().replace(/-/g, '')}`;
}

export function isWorkerIdShape(value: unknown): value is string {
  return typeof value === 'string' && WORKER_ID_SHAPE.test(value);
}

export const MIN_REGISTRATION_KEY_CHARS = 16;
export const MAX_REGISTRATION_KEY_CHARS = 200;
export const MIN_DISTINCT_KEY_CHARS = 8;

/**
 * (ours) A registration key must not be guessable: two chats with the same key are one
 * worker, and whoever guesses a key takes that worker over. So it is 16–200 characters with
 * at least 8 different ones (a fresh UUID passes; "1111111111111111" does not).
 */
export function checkRegistrationKey(key: unknown): string {
  const chars = typeof key === 'string' ? [...key] : [];
  if (chars.length < MIN_REGISTRATION_KEY_CHARS || chars.length > MAX_REGISTRATION_KEY_CHARS || new Set(chars).size < MIN_DISTINCT_KEY_CHARS) {
    throw appErrors.invalidInput(
      `registration_key must be ${MIN_REGISTRATION_KEY_CHARS}–${MAX_REGISTRATION_KEY_CHARS} characters with at least ${MIN_DISTINCT_KEY_CHARS} different ones, ` +
        'made up fresh for this chat (a new UUID works): a short or repetitive key can be guessed, and whoever guesses it takes the worker over.',
    );
  }
  return key as string;
}

/** Only this hash of a registration key is ever stored. */
export function hashRegistrationKey(registrationKey: string): string {
  return sha256hex(registrationKey);
}

/** `<owner slug>/worker-<first 32 hex of sha256("agent-key\n" + worker_id)>`. */
export function workerAgentKey(ownerSlug: string, workerId: string): string {
  return `${ownerSlug}/worker-${sha256hex(`agent-key\n${workerId}`).slice(0, 32)}`;
}

/** A worker's session in a room: `local_<sha256hex(worker_id + "\n" + room_id)>`, stable for life. */
export function workerSessionId(workerId: string, roomId: string): string {
  return `local_${keptSha256hex(`${workerId}\n${roomId}`)}`;
}

export function isWorkerSessionIdShape(value: unknown): value is string {
  return typeof value === 'string' && WORKER_SESSION_ID_SHAPE.test(value);
}

/** A legacy or implicit session: `local_<uuid v4>`. */
export function newLegacySessionId(): string {
  return `local_${randomUUID()}`;
}

/** `<owner slug>/session-<first 12 hex of sha256(session_id)>`. */
export function legacyAgentKey(ownerSlug: string, sessionId: string): string {
  return `${ownerSlug}/session-${keptSha256hex(sessionId).slice(0, 12)}`;
}
