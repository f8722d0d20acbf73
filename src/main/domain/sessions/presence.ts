// Presence of agent sessions (data-model.md §5.5): status and status text, set by the
// actions that change what an agent is doing, in the same transaction as that action;
// plus the latest reasoning shown on the agent card, and last_seen_at. Across machines
// (team-rooms.md §4): each app's heartbeat and the moment its connection let a session go.
import type { Tx } from '../../store/port';
import {
  releaseSessionRow, resetPresenceNaming, touchSessionLastSeen, updatePresenceRow, updateReasoningRow, upsertAppHost, type SessionRow,
} from '../../store/sessionQueries';

export type PresenceStatus = 'idle' | 'working' | 'reviewing' | 'blocked';

/** What presence reads of a session row (who holds it, when its holder was last heard). */
export type PresenceRow = Pick<SessionRow, 'session_id' | 'ended_at' | 'host_id' | 'released_at' | 'host_heard_at'>;

export async function setPresence(tx: Tx, sessionId: string, status: PresenceStatus, statusText: string): Promise<void> {
  const roomId = await updatePresenceRow(tx, sessionId, status, statusText);
  if (roomId !== null) tx.emit({ type: 'worker.changed', roomId, sessionId, change: 'presence' });
}

/**
 * Someone else's action took `taskWord` (e.g. task_7) out of an agent's hands (a person
 * moved it to Done, cancelled or reopened it): a presence still about it ("reviewing
 * task_7") would be stale on the room header and the roster, so it goes back to idle.
 */
export async function resetPresenceAbout(tx: Tx, roomId: string, taskWord: string, idleText: string): Promise<void> {
  for (const sessionId of await resetPresenceNaming(tx, roomId, taskWord, idleText)) {
    tx.emit({ type: 'worker.changed', roomId, sessionId, change: 'presence' });
  }
}

/** Rules for post_status text, checked in order; the first whose phrase the text contains wins. */
const STATUS_TEXT_RULES: ReadonlyArray<{ phrases: readonly string[]; status: PresenceStatus }> = [
  { phrases: ['blocked', 'waiting on', 'waiting for'], status: 'blocked' },
  { phrases: ['review'], status: 'reviewing' },
  { phrases: ['idle', 'done', 'available', 'finished', 'standing by'], status: 'idle' },
];

/** Classifies post_status text case-insensitively; anything unmatched means working. */
export function classifyStatusText(text: string): PresenceStatus {
  const lower = text.toLowerCase();
  return STATUS_TEXT_RULES.find((rule) => rule.phrases.some((p) => lower.includes(p)))?.status ?? 'working';
}

/** Presence that follows an update_task status: in_progress, blocked and in_review map; anything else is idle. */
export function presenceForTaskStatus(taskStatus: string): PresenceStatus {
  switch (taskStatus) {
    case 'in_progress':
      return 'working';
    case 'blocked':
      return 'blocked';
    case 'in_review':
      return 'reviewing';
    default:
      return 'idle';
  }
}

/** The latest post_reasoning update, as stored on the session and returned by the tool. */
export interface ReasoningUpdate {
  summary: string;
  goal: string | null;
  checking: string | null;
  hypothesis: string | null;
  blocker: string | null;
  next_action: string | null;
  confidence: number | null;
  created_at: string;
}

/** Replaces the session's latest reasoning (only the latest is kept). */
export async function setReasoning(tx: Tx, sessionId: string, update: ReasoningUpdate): Promise<void> {
  const roomId = await updateReasoningRow(tx, sessionId, JSON.stringify(update));
  if (roomId !== null) tx.emit({ type: 'worker.changed', roomId, sessionId, change: 'updated' });
}

/** The session's latest reasoning, or null when it never posted any. */
export function readReasoning(session: Pick<SessionRow, 'reasoning_json'>): ReasoningUpdate | null {
  return session.reasoning_json === null ? null : (JSON.parse(session.reasoning_json) as ReasoningUpdate);
}

/** Marks activity (worker-handles.md §7 step 10). Publishes nothing: it happens on every call. */
export async function touchLastSeen(tx: Tx, sessionId: string): Promise<void> {
  await touchSessionLastSeen(tx, sessionId);
}

/** An app's heartbeat in a team database: it is alive, and so are the sessions it holds there. */
export async function heartbeat(tx: Tx, host: { readonly id: string; readonly label: string }): Promise<void> {
  await upsertAppHost(tx, host.id, host.label);
}

/** The connection that held the session at `epoch` closed: the team's other apps show it offline after the grace. */
export async function releaseSession(tx: Tx, sessionId: string, epoch: number): Promise<void> {
  await releaseSessionRow(tx, sessionId, epoch);
}
