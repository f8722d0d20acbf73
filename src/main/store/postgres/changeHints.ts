// NOTIFY payloads: a committed event as a hint for a team's other apps (type, room,
// number), tagged with the sending app so it ignores its own. A hint is never the data:
// receivers read the database.
import type { CoreEvent } from '../../events/types';
import type { ChangeHint } from '../port';

// PostgreSQL's limit is 8000 bytes; a longer hint goes without its room (still a wake-up).
const MAX_PAYLOAD_BYTES = 7_900;

interface Payload {
  a: string;
  t: CoreEvent['type'];
  r?: string;
  n?: number;
}

/**
 * Payloads of the events a write emitted. Events without a room are this app's own, never the
 * team's: the account (auth.changed) and the managed agents it runs (agent.*).
 */
export function hintsOf(appId: string, events: readonly CoreEvent[]): string[] {
  const out = new Set<string>();
  for (const event of events) {
    if (!('roomId' in event)) continue;
    const payload: Payload = { a: appId, t: event.type, r: event.roomId };
    if ('number' in event) payload.n = event.number;
    let text = JSON.stringify(payload);
    if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) text = JSON.stringify({ a: appId, t: event.type });
    out.add(text);
  }
  return [...out];
}

/** The hint in `payload`, or null for this app's own or a malformed one. `place` is the receiver's name for the team. */
export function parseHint(appId: string, place: string, payload: string): ChangeHint | null {
  let p: Partial<Payload>;
  try {
    p = JSON.parse(payload) as Partial<Payload>;
  } catch {
    return null;
  }
  if (typeof p !== 'object' || p === null || p.a === appId || typeof p.t !== 'string') return null;
  return {
    place,
    type: p.t,
    roomId: typeof p.r === 'string' ? p.r : null,
    number: typeof p.n === 'number' ? p.n : null,
  };
}
