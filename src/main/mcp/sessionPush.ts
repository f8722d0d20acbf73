// Pushing wakes into open sessions (issue 26): an agent that is connected and registered but
// not inside wait_for_messages (at its prompt, or busy) gets what would have woken it pushed
// into its session, through the way its client takes it (a Claude Code channel
// notification; a Codex queued message). The rules are the wait's: the same activation
// router (activation.ts), the same burst gathering (wakeGathering.ts), so an agent is pushed
// to exactly as often as a wait would have woken it, and never for room noise. A push is a
// delivery not yet confirmed (delivery/pushes.ts): receipts say "pushed to Juniper" until a
// read returns it, and a later wait does not wake the agent for it again. A push says who sent
// it (person, agent or the app) and carries message text that cannot forge another message's
// line or the channel markup (issue 32 item 11). A push that brings a person's @all in the
// agent's turn hands the turn and carries the earlier answers (earlierAnswers.ts) and the note
// that saying nothing is fine, as a wait's result does.
import { senderNameOf } from '../domain/identity/labels';
import { msgId } from '../domain/ids';
import { pageAfter, type MessageRow } from '../domain/messages/read';
import { getSession, type SessionRow } from '../domain/sessions/sessions';
import { RoomReceipts } from '../domain/delivery/receipts';
import { getManagedMember } from '../store/managedAgentQueries';
import type { Storage } from '../store/port';
import { routerFor } from '../domain/activation/activation';
import { turnsToHand, type EarlierAnswer } from '../domain/activation/earlierAnswers';
import { handTurn } from '../store/broadcastTurnQueries';
import type { ConnectionState } from './connectionState';
import { splitPlaceKey } from '../domain/placeKeys';
import type { McpServices } from './services';
import { BURST_MS, gatherBurst } from './wakeGathering';

/** Messages one push carries at most (a wait's window). */
const WINDOW = 100;

/** What one push brings: the activating messages of a burst, oldest first. */
export interface PushedMessages {
  readonly place: string;
  readonly roomId: string;
  readonly session: SessionRow;
  readonly rows: readonly MessageRow[];
  /** The @all broadcasts among `rows` pushed in the agent's turn, with the earlier answers to them. */
  readonly turns?: ReadonlyMap<number, readonly EarlierAnswer[]>;
}

/** How a client takes a push; false when it could not be handed over (nothing is recorded then). */
export interface PushSink {
  readonly via: 'channel' | 'codex_queue';
  send(push: PushedMessages): Promise<boolean>;
}

interface Target {
  readonly state: ConnectionState;
  readonly sink: PushSink;
}

/** A push being gathered for a session: the first message number it starts from. */
interface Gathering {
  from: number;
}

export class SessionPush {
  private readonly targets = new Map<string, Target>();
  private readonly gathering = new Map<string, Gathering>();
  /** Session key -> its room id (a session never changes room). */
  private readonly roomOf = new Map<string, string>();
  private readonly work = new Set<Promise<unknown>>();
  private readonly stops: Array<() => void>;

  constructor(private readonly services: McpServices) {
    this.stops = [
      services.bus.on('message.created', (e) => this.track(this.messageCommitted(e.place, e.roomId, e.number))),
      // A turn of a person's @all moved (issue 34: an answer, a pass, a deadline): the agent whose
      // turn started gets the broadcast pushed now, by the same routing (never before its turn).
      services.bus.on('message.receipts', (e) => {
        if (e.turn) this.track(this.messageCommitted(e.place, e.roomId, e.first));
      }),
    ];
  }

  /** The connection's client takes pushes through `sink`. */
  attach(state: ConnectionState, sink: PushSink): void {
    this.targets.set(state.id, { state, sink });
  }

  /** How the session's connection takes pushes now, or null (not connected here, or its client takes none). */
  sinkFor(sessionKey: string): { via: PushSink['via']; connection: ConnectionState } | null {
    const binding = this.services.bindings.binding(sessionKey);
    const target = binding && this.targets.get(binding.connectionId);
    return target && this.services.bindings.holds(target.state, sessionKey) ? { via: target.sink.via, connection: target.state } : null;
  }

  detach(connectionId: string): void {
    this.targets.delete(connectionId);
  }

  async close(): Promise<void> {
    this.stops.forEach((stop) => stop());
    this.targets.clear();
    await Promise.allSettled([...this.work]);
  }

  private track(promise: Promise<unknown>): void {
    const work = promise.catch((error: unknown) => console.warn('push into an open session failed:', error));
    this.work.add(work);
    void work.finally(() => this.work.delete(work));
  }

  private async messageCommitted(place: string, roomId: string, number: number): Promise<void> {
    if (this.targets.size === 0) return;
    const storage = await this.services.places.get(place);
    for (const target of [...this.targets.values()]) {
      for (const key of target.state.tokens.keys()) {
        if (splitPlaceKey(key).place !== place || !this.services.bindings.holds(target.state, key)) continue;
        if ((await this.roomOfSession(storage, key)) !== roomId) continue;
        // Inside a wait: the wait delivers it.
        if (this.services.delivery.reachability.state(key) === 'listening') continue;
        const pending = this.gathering.get(key);
        if (pending) {
          pending.from = Math.min(pending.from, number);
          continue;
        }
        const gathering = { from: number };
        this.gathering.set(key, gathering);
        this.track(this.pushAfterBurst(target, key, { place, roomId, storage }, gathering));
      }
    }
  }

  private async roomOfSession(storage: Storage, key: string): Promise<string | null> {
    const known = this.roomOf.get(key);
    if (known) return known;
    const session = await storage.read((q) => getSession(q, splitPlaceKey(key).id));
    if (!session || session.session_kind !== 'worker') return null;
    this.roomOf.set(key, session.room_id);
    return session.room_id;
  }

  /** Lets the burst land (as a wait does), then pushes what of it activates the agent and it has not had. */
  private async pushAfterBurst(target: Target, key: string, room: { place: string; roomId: string; storage: Storage }, gathering: Gathering): Promise<void> {
    try {
      await gatherBurst(this.services.signals, this.services.bus, room, Date.now() + BURST_MS, new AbortController().signal, () => undefined);
    } finally {
      this.gathering.delete(key);
    }
    const { services } = this;
    if (target.state.closed || !services.bindings.holds(target.state, key)) return;
    if (services.delivery.reachability.state(key) === 'listening') return;
    const { place, roomId, storage } = room;
    const sessionId = splitPlaceKey(key).id;
    const { pushes, deliveries } = services.delivery;
    const found = await storage.read(async (q) => {
      const session = await getSession(q, sessionId);
      if (!session || session.ended_at) return null;
      // A managed agent's turns come from the app that runs it (agents/triggers.ts), never from a push.
      if (session.worker_id && (await getManagedMember(q, session.worker_id, session.room_id))) return null;
      const rows = await pageAfter(q, roomId, gathering.from - 1, WINDOW);
      if (rows.length === 0) return null;
      const route = await routerFor(services, q, room, session);
      const receipts = await RoomReceipts.load(q, roomId, rows[0].number, rows.at(-1)!.number);
      const fresh: MessageRow[] = [];
      for (const row of rows) {
        // Already pushed, or already returned by one of its reads: nothing new to bring.
        if (pushes.pushedAt(room, sessionId, row.number) || receipts.of(sessionId, row.number) || deliveries.pendingCovers(room, sessionId, row.number)) continue;
        if ((await route(row)).decision === 'activate') fresh.push(row);
      }
      // A person's @all in the agent's turn: pushed with the earlier answers.
      const byPeople = new Set(fresh.filter((r) => r.source === 'human').map((r) => r.number));
      const turns = byPeople.size > 0 ? await turnsToHand(services, q, place, roomId, session.agent_key, byPeople) : new Map<number, EarlierAnswer[]>();
      return { session, rows: fresh, turns };
    });
    if (!found || found.rows.length === 0) return;
    // A wait that started meanwhile delivers it instead.
    if (services.delivery.reachability.state(key) === 'listening') return;
    if (!(await target.sink.send({ place, roomId, session: found.session, rows: found.rows, turns: found.turns }))) return;
    const numbers = found.rows.map((r) => r.number);
    pushes.record({ place, roomId, sessionId, numbers, at: storage.now(), via: target.sink.via });
    // Its turn handed, so a later wait does not bring it again.
    if (found.turns.size > 0) {
      await storage.write(async (tx) => {
        for (const n of found.turns.keys()) await handTurn(tx, roomId, n, found.session.agent_key);
      });
    }
    services.bus.publish({ type: 'message.receipts', place, roomId, sessionId, first: numbers[0], last: numbers.at(-1)! });
  }
}

/** Who sent a message, in the words a push says it: a person, an agent, or the app (system). */
export function senderKind(row: Pick<MessageRow, 'source'>): 'person' | 'agent' | 'system' {
  return row.source === 'human' ? 'person' : row.source;
}

// Claude Code wraps a push as <channel source="…" …>content</channel>: a message's text must not
// open or close that markup (issue 32 item 11). "<" of any <channel or </channel becomes "&lt;".
const CHANNEL_TAG = /<(?=\s*\/?\s*channel)/giu;

/** A message's text (or a name) as a push carries it: no channel markup of its own. */
export function escapeChannelText(text: string): string {
  return text.replace(CHANNEL_TAG, '&lt;');
}

/** A name on one line: control characters (a forged row's line breaks) become spaces; bounded. */
function oneLine(name: string): string {
  return escapeChannelText([...name.replace(/\p{Cc}+/gu, ' ').trim()].slice(0, 80).join(''));
}

/** What a push in an agent's @all turn adds below the broadcast; passing is how it says nothing. */
export const PUSH_TURN_NOTE = 'Say nothing if you have nothing to add: wait_for_messages with pass: true passes your turn.';

/**
 * The text of a push: one message as it is; a burst, or a message pushed in the agent's @all
 * turn, as each message's line "msg_N from <kind> <name>:" and its text quoted below it ("> "
 * before every line), so no message's text can start a line that reads as another message's or
 * as an earlier answer. An @all in the agent's turn is followed by its earlier answers, quoted
 * the same way under "earlier answer msg_N from <name>:", and the note.
 */
export function pushText(rows: readonly MessageRow[], turns: ReadonlyMap<number, readonly EarlierAnswer[]> = new Map()): string {
  if (rows.length === 1 && !turns.has(rows[0].number)) return escapeChannelText(rows[0].text);
  return rows
    .map((r) => {
      const block = `${msgId(r.number)} from ${senderKind(r)} ${oneLine(senderNameOf(r))}:\n${quoted(r.text)}`;
      const earlier = turns.get(r.number);
      return earlier ? `${block}\n${turnBlock(r.number, earlier)}` : block;
    })
    .join('\n\n');
}

function turnBlock(number: number, earlier: readonly EarlierAnswer[]): string {
  const head = `Your turn to answer ${msgId(number)}: the room's agents answer it one at a time.`;
  return [
    earlier.length === 0 ? `${head} No agent has answered it yet.` : `${head} Earlier answers to it, from the other agents:`,
    ...earlier.map((a) => `earlier answer ${msgId(a.number)} from ${oneLine(a.from)}:\n${quoted(a.text)}`),
    PUSH_TURN_NOTE,
  ].join('\n');
}

const quoted = (text: string): string => escapeChannelText(text).replace(/^/gmu, '> ');

/** Identifier-only facts about the newest message of a push (channel meta keys must be identifiers). */
export function pushMeta(push: PushedMessages): Record<string, string> {
  const newest = push.rows.at(-1)!;
  return {
    room: push.roomId,
    message_id: msgId(newest.number),
    sender: oneLine(senderNameOf(newest)),
    sender_kind: senderKind(newest),
    ...(newest.thread_root_number !== null ? { thread: msgId(newest.thread_root_number) } : {}),
    ...(push.rows.length > 1 ? { messages: String(push.rows.length) } : {}),
  };
}
