// NOTIFY payloads: a committed room event as a hint for a team's other apps (its type, room
// and the few fields that say what changed; never the data), tagged with the sending app so
// it ignores its own. Receivers read the database for the rest.
import type { EmittedEvent, RoomEventBody } from '../../events/types';
import type { ChangeHint } from '../port';
import { hintKey, mergedHint } from './hintCoalescer';

// PostgreSQL's limit is 8000 bytes; a room id is at most 512 characters, so a hint fits.
const MAX_PAYLOAD_BYTES = 7_900;

const TYPES: ReadonlySet<string> = new Set<RoomEventBody['type']>([
  'message.created', 'room.changed', 'task.changed', 'worker.changed', 'needsYou.changed', 'knowledge.changed',
  'message.receipts', 'meter.changed',
]);

/**
 * Payloads of the events a write emitted, coalesced per room like the receivers do (one hint
 * per room and key: a session's presence changed twice is one hint). Events without a room
 * are this app's own, never the team's: the account (auth.changed) and the managed agents it
 * runs (agent.*). `moreComing(roomId)`: another call of this app is on its way to that room,
 * so a new message's hint says more is coming (the receivers' waiters gather the burst).
 */
export function hintsOf(appId: string, events: readonly EmittedEvent[], moreComing: (roomId: string) => boolean = () => false): string[] {
  const byKey = new Map<string, RoomEventBody>();
  for (const event of events) {
    if (!('roomId' in event)) continue;
    // A new message's summary (its text) is for this app's watchers only: the hint says its number.
    const hint: RoomEventBody =
      event.type === 'message.created' ? { type: event.type, roomId: event.roomId, number: event.number, ...(moreComing(event.roomId) ? { more: true } : {}) } : event;
    const key = `${hint.roomId}\n${hintKey(hint)}`;
    const held = byKey.get(key);
    byKey.set(key, held ? mergedHint(held, hint) : hint);
  }
  const out: string[] = [];
  for (const hint of byKey.values()) {
    const text = JSON.stringify({ a: appId, ...hint });
    if (Buffer.byteLength(text) <= MAX_PAYLOAD_BYTES) out.push(text);
  }
  return out;
}

/** The event in `payload`, or null for this app's own or a malformed one. `place` is the receiver's name for the team. */
export function parseHint(appId: string, place: string, payload: string): ChangeHint | null {
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof p !== 'object' || p === null || p.a === appId) return null;
  if (typeof p.type !== 'string' || !TYPES.has(p.type) || typeof p.roomId !== 'string') return null;
  // What the receivers use must have its type (a newer app may send more).
  if ((p.type === 'message.created' || p.type === 'task.changed') && typeof p.number !== 'number') return null;
  if (p.type === 'worker.changed' && typeof p.sessionId !== 'string') return null;
  if (p.type === 'message.receipts' && (typeof p.sessionId !== 'string' || typeof p.first !== 'number' || typeof p.last !== 'number')) return null;
  const { a: _app, more, turn, ...event } = p;
  // `more` is a flag of new messages only (anything else in it is dropped).
  return {
    ...(event as RoomEventBody),
    ...(more === true && p.type === 'message.created' ? { more: true } : {}),
    // A turn of an @all moved (issue 34): the receivers' waiters look again.
    ...(turn === true && p.type === 'message.receipts' ? { turn: true } : {}),
    place,
    remote: true,
  };
}
