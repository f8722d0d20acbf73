// wait_for_messages (mcp-tools.md §5.3): route messages after a cursor in windows of
// 100 and return the first window that activates this agent; when caught up, sleep on
// the room's commit signal (never polling the database; in a team room also raised by the
// other apps' hints and by a reconnect) until a message commits, the deadline passes, the
// client cancels, or the worker is taken over (W14), on this machine or another. A burst of
// messages committed together goes out in one result, and each result that activates the
// agent is recorded with its reason for the people watching. While it sleeps it sends
// progress (waitProgress.ts) to clients that asked, and logs what woke it.
import { z } from 'zod';
import { errors, type DomainError } from '../../domain/errors';
import { msgId, parseNumberedId } from '../../domain/ids';
import type { AgentMessage } from '../../domain/messages/agentMessages';
import { boundMessageList } from '../../domain/messages/messageBounds';
import type { MessageRow } from '../../domain/messages/read';
import { mapInOrder } from '../../domain/inOrder';
import type { SessionRow } from '../../domain/sessions/sessions';
import type { Queryable } from '../../store/port';
import { assertWithinBudget } from '../acting';
import { assertStillHeld, readingSession, resolveIdentity, sessionKeyOf, type RoomRef } from '../identity';
import { routeMessage, type RoutingDecision } from '../../domain/activation/routing';
import { routableMessage, routingContextFor } from '../../domain/activation/routingContext';
import { noteCallIdentity } from '../callScope';
import type { ToolEnv } from '../services';
import { ARRAY, STRING, orNull, result } from '../outputSchemas';
import { defineTool, readOnly, sessionFacade } from '../toolKit';
import { gatherBurst, sleepOnRoom as sleep } from '../wakeGathering';
import { noteWake, startWaitProgress } from './waitProgress';
import { hopTrace } from '../../../shared-node/hopTrace';
import { handTurns, passOpenTurns, startedTurns } from './waitTurns';
import { clampWaitTimeout } from '../../../shared/waitTiming';

/** The bench's per-hop timestamps (LETAGENTS_HOP_TRACE); null, and free, otherwise. */
const hops = hopTrace('app');

const WINDOW = 100;
const MAX_LISTED_SKIPS = 100;

interface Routed {
  row: MessageRow;
  decision: RoutingDecision | null;
  /** When it was pushed into the agent's session (issue 26): it activates, but is not news. */
  pushedAt: string | null;
}

/** A person's @all whose turn came to the agent after the cursor passed it (issue 34): news. */
const TURN_CAME: RoutingDecision = { decision: 'activate', reason: 'broadcast', addressed: true };

/** Activates the agent and was not pushed to it already: news that ends the wait. */
const isNews = (r: Routed) => (!r.decision || r.decision.decision === 'activate') && r.pushedAt === null;

/** What one look at the room found: the newest number, and the window routed after the cursor (none when caught up). */
interface Look {
  latest: number;
  routed: Routed[] | null;
}

export const waitForMessagesTool = defineTool({
  name: 'wait_for_messages',
  title: 'Wait for messages',
  description:
    'Wait for messages that concern you. Loop, passing each result\'s last_observed_message_id as after_message_id ' +
    '(even if none came). Progress every 10 s if asked; waits over 55 s need a client that resets its timeout on progress.',
  input: {
    after_message_id: z.string().optional().describe('Omit at first.'),
    timeout: z.number().int().min(0).default(30_000).describe('Milliseconds, 1 000–180 000.'),
    pass: z.boolean().optional().describe('Pass your @all turn.'),
    ...sessionFacade,
  },
  output: result({ messages: ARRAY, last_observed_message_id: orNull(STRING) }),
  annotations: readOnly,
  async run(args, env, call) {
    let cursor: number | null = null;
    if (args.after_message_id !== undefined) {
      cursor = parseNumberedId('msg', args.after_message_id);
      if (cursor === null) throw errors.M7();
    }
    const identity = await resolveIdentity(env, args, { write: false });
    const { roomId, place, storage: store } = identity;
    await assertWithinBudget(env, identity);
    const recipient = await store.read((q) => readingSession(env, q, identity, identity.session));
    if (recipient) noteCallIdentity(env, identity, recipient.session_id);
    const { deliveries, reachability } = env.services.delivery;
    const recipientKey = recipient && sessionKeyOf(place, recipient);
    const waitMs = clampWaitTimeout(args.timeout);
    const deadline = Date.now() + waitMs;
    let takeover: DomainError | null = null;
    let wakeOnFailure: (() => void) | null = null;
    const removeWaiter = recipient
      ? env.services.bindings.addWaiter(sessionKeyOf(place, recipient), env.conn.id, (error) => {
          takeover = error;
          wakeOnFailure?.();
        })
      : () => undefined;
    // A takeover while the identity was read, before the waiter listened, fails the wait now.
    try {
      assertStillHeld(env, identity);
    } catch (error) {
      removeWaiter();
      throw error;
    }
    const skipped: number[] = [];
    /** Messages pushed to the agent in windows that held no news: they come back as context, marked. */
    const pushedEarlier: Routed[] = [];
    let gathered = false;
    /** The first message this wait examines: the result delivers what routes to the agent from here on (issue 14). */
    let examinedFrom: number | null = null;
    /** Notes the receipt of a result that examined up to its last_observed_message_id. */
    const delivered = <R extends { last_observed_message_id: string | null }>(result: R): R => {
      const last = result.last_observed_message_id === null ? 0 : parseNumberedId('msg', result.last_observed_message_id)!;
      if (recipient && examinedFrom !== null) deliveries.record(identity, recipient.session_id, examinedFrom, last);
      return result;
    };
    // A sleep starting after a takeover ends at once (reads are async: one may land meanwhile).
    const onFailure = (wake: () => void) => {
      wakeOnFailure = wake;
      if (takeover) wake();
    };
    // Waiting again during one's own @all turn without having posted passes it (issue 34; `pass` says so).
    if (recipient) await passOpenTurns(env, identity, recipient);
    // Progress names the wait's length as asked (a millisecond gone on a busy machine is not news).
    const stopProgress = startWaitProgress(call, waitMs, env.services.waitProgressMs);
    if (recipientKey) reachability.waitStarted(recipientKey);
    try {
      for (;;) {
        if (takeover) throw takeover;
        if (recipient) env.services.touchSession(place, recipient.session_id);
        // Listen before reading: a commit landing while the read runs still wakes the sleep below.
        const signal = env.services.signals.next(place, roomId);
        // The room's part of the look is shared by every wait the same commit woke (roomReads.ts);
        // an empty room with no cursor waits, then routes from its first message.
        const page = await env.services.roomReads.page(identity, cursor, WINDOW);
        const rows = page.rows;
        const look: Look = { latest: page.latest, routed: rows ? await store.read((q) => route(env, q, identity, recipient, rows)) : null };
        const { latest } = look;
        if (cursor === null && latest === 0) cursor = 0;
        if (cursor === null) {
          signal.cancel();
          const routed = look.routed!;
          const result = await finish(env, identity, recipient, routed, skipped, latest, 'newest');
          // The newest page, or when cut to the byte bound its newest suffix: from its first kept message.
          const firstKept = result.truncated ? result.messages[0]?.id : undefined;
          examinedFrom = firstKept !== undefined ? parseNumberedId('msg', firstKept) : (routed[0]?.row.number ?? null);
          return noteWake(call, delivered(result));
        }
        // What this look routed starts after the cursor (or the newest number, when the cursor is ahead).
        examinedFrom ??= Math.min(cursor, latest) + 1;
        // @all turns that came since the cursor passed their broadcast are news, with this look's window.
        const came = recipient ? await startedTurns(env, identity, recipient, cursor) : [];
        if (came.length > 0) {
          signal.cancel();
          const routed = [...came.map((row) => ({ row, decision: TURN_CAME, pushedAt: null })), ...(look.routed ?? [])];
          const before = [...pushedEarlier, ...routed].sort((a, b) => a.row.number - b.row.number);
          const result = await finish(env, identity, recipient, before, skipped, Math.max(cursor, look.routed?.at(-1)?.row.number ?? 0), 'oldest', cursor);
          if (recipient) recordWake(env, identity, recipient.session_id, routed, result.last_observed_message_id);
          return noteWake(call, delivered(result));
        }
        if (look.routed) {
          const routed = look.routed;
          if (routed.some(isNews)) {
            // Caught up with the room: let the rest of a burst land, then route the window again
            // (when nothing else committed since the look, the window routed above is the whole burst).
            // The look's signal listens on: a commit between the look and the gathering counts.
            if (!gathered && routed.at(-1)!.row.number === latest) {
              gathered = true;
              const more = await gatherBurst(env.services.signals, env.services.bus, identity, deadline, call.signal, onFailure);
              wakeOnFailure = null;
              signal.cancel();
              if (more || signal.fired() || takeover) continue;
            }
            signal.cancel();
            const result = await finish(env, identity, recipient, [...pushedEarlier, ...routed], skipped, routed.at(-1)!.row.number, 'oldest');
            if (recipient) recordWake(env, identity, recipient.session_id, routed, result.last_observed_message_id);
            return noteWake(call, delivered(result));
          }
          signal.cancel();
          for (const r of routed) {
            if (r.pushedAt !== null && r.decision?.decision === 'activate') pushedEarlier.push(r);
            else skipped.push(r.row.number);
          }
          cursor = routed.at(-1)!.row.number;
          continue;
        }
        cursor = Math.min(cursor, latest);
        const remaining = deadline - Date.now();
        if (remaining <= 0 || call.signal.aborted) {
          signal.cancel();
          return noteWake(call, delivered(await finish(env, identity, recipient, pushedEarlier, skipped, cursor, 'oldest')));
        }
        const woke = await sleep(signal, remaining, call.signal, onFailure);
        if (hops && woke === 'commit') hops.mark('app.woken', `${env.conn.id}:${call.requestId}`);
        wakeOnFailure = null;
      }
    } finally {
      stopProgress();
      removeWaiter();
      if (recipientKey) reachability.waitEnded(recipientKey);
    }
  },
});

async function route(env: ToolEnv, q: Queryable, room: RoomRef, recipient: SessionRow | null, rows: readonly MessageRow[]): Promise<Routed[]> {
  if (!recipient) return rows.map((row) => ({ row, decision: null, pushedAt: null }));
  const ctx = await routingContextFor(env.services, q, room, recipient);
  const { pushes } = env.services.delivery;
  return mapInOrder(rows, async (row) => ({
    row,
    decision: await routeMessage(routableMessage(row), ctx),
    pushedAt: pushes.pushedAt(room, recipient.session_id, row.number),
  }));
}

async function finish(
  env: ToolEnv,
  identity: Parameters<typeof assertStillHeld>[1],
  recipient: SessionRow | null,
  routed: Routed[],
  skipped: number[],
  lastExamined: number | null,
  keep: 'oldest' | 'newest',
  /** Everything up to here was examined before: a result cut short never goes back past it. */
  floor: number | null = null,
) {
  const delivered = routed.filter((r) => !r.decision || r.decision.decision === 'activate');
  for (const r of routed) if (r.decision && r.decision.decision === 'silent') skipped.push(r.row.number);
  const rows = delivered.map((r) => r.row);
  const { roomId } = identity;
  const { messages, threadContextTruncated } = await env.services.roomReads.agentMessages(identity, rows);
  const withActivation: AgentMessage[] = messages.map((m, i) => {
    const decision = delivered[i].decision;
    if (!decision) return m;
    const pushedAt = delivered[i].pushedAt;
    // A pushed message is context here: the agent had it already (pushed_at says when).
    const forAgent = { decision: 'activate', reason: decision.reason, addressed: decision.addressed, ...(pushedAt ? { pushed_at: pushedAt } : {}) };
    return { ...m, activation: { for_current_agent: forAgent } };
  });
  const bounded = boundMessageList(withActivation, keep);
  let last = lastExamined;
  if (bounded.truncated && keep === 'oldest' && bounded.messages.length > 0) {
    last = Math.max(parseNumberedId('msg', bounded.messages.at(-1)!.id)!, floor ?? 0);
  }
  assertStillHeld(env, identity);
  // A person's @all whose turn came: handed now, with the earlier answers (issue 34).
  const handed = recipient ? await handTurns(env, identity, recipient, bounded.messages) : bounded.messages;
  skipped.sort((a, b) => a - b);
  const listed = skipped.filter((n) => last === null || n <= last);
  return {
    room_id: roomId,
    messages: handed,
    last_observed_message_id: last === null || last === 0 ? null : msgId(last),
    ...(listed.length > 0 ? { skipped_message_ids: listed.slice(-MAX_LISTED_SKIPS).map(msgId), skipped_message_count: listed.length } : {}),
    ...(bounded.truncated ? { truncated: true, omitted_message_count: bounded.omittedCount } : {}),
    ...(threadContextTruncated ? { thread_context_truncated: true } : {}),
  };
}

/** Notes why the agent was woken: the first activating message of the result it gets. */
function recordWake(env: ToolEnv, room: RoomRef, sessionId: string, routed: Routed[], lastObserved: string | null): void {
  const last = lastObserved === null ? 0 : parseNumberedId('msg', lastObserved)!;
  const activating = routed.filter((r) => r.decision?.decision === 'activate' && r.pushedAt === null && r.row.number <= last);
  const first = activating[0];
  if (!first?.decision) return;
  env.services.wakes.record({
    place: room.place,
    roomId: room.roomId,
    sessionId,
    at: room.storage.now(),
    messageNumber: first.row.number,
    reason: first.decision.reason,
    addressed: first.decision.addressed,
    concern: first.decision.concern ?? null,
    activating: activating.length,
  });
}
