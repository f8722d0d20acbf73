// Automations started by what happens in their room: a task enters a status (e.g. In review), a
// task is blocked, an agent's request in Needs you is answered. Committed events of the room's
// place (this computer's, or a team's as its other apps commit them) are read once each; a
// room with no such automation costs one map lookup per event. Only what happens after the
// app started counts (the history is not replayed at start-up).
import type { AutomationTrigger } from '../../shared/model/automations';
import { STATUS_LABELS, isTaskStatus } from '../../shared/taskTransitions';
import { formatId } from '../domain/ids';
import { parseActorLabel } from '../domain/identity/labels';
import type { EventBus } from '../events/bus';
import type { AutomationRow } from '../store/automationQueries';
import { requestsAnsweredSince } from '../store/knowledgeQueries';
import { storageIn, type Places } from '../store/places';
import { getTaskRow, latestTaskEventRow } from '../store/taskQueries';
import { preview } from '../agents/providers/streamText';

type EventType = Extract<AutomationTrigger['type'], 'task_status' | 'task_blocked' | 'decision_answered'>;

export interface RoomEventTarget {
  /** The room's active automations with one of these triggers, each with its trigger. */
  automationsIn(place: string, roomId: string, types: readonly EventType[]): Array<{ row: AutomationRow; trigger: AutomationTrigger }>;
  /** Starts a run of the automation; `causeText` says what happened. */
  fire(row: AutomationRow, causeText: string): void;
}

const SEEN_LIMIT = 10_000;

export function watchRoomEvents(bus: EventBus, places: Places, target: RoomEventTarget, now: () => string): () => void {
  const startedAt = now();
  const seen = new Set<string>();
  const firstTime = (key: string) => {
    if (seen.has(key)) return false;
    if (seen.size >= SEEN_LIMIT) seen.clear();
    seen.add(key);
    return true;
  };

  const onTask = async (place: string, roomId: string, number: number) => {
    const automations = target.automationsIn(place, roomId, ['task_status', 'task_blocked']);
    if (automations.length === 0) return;
    const storage = await storageIn(places, place);
    const move = await storage.read((q) => latestTaskEventRow(q, roomId, number));
    if (!move || move.from_status === null || move.created_at < startedAt || !firstTime(`task\n${place}\n${roomId}\n${number}\n${move.seq}`)) return;
    const to = move.to_status;
    const task = await storage.read((q) => getTaskRow(q, roomId, number));
    const label = isTaskStatus(to) ? STATUS_LABELS[to] : to;
    const cause = `${formatId('task', number)} "${preview(task?.title ?? '', 120)}" entered ${label} (moved by ${parseActorLabel(move.actor_label)?.displayName ?? move.actor_label})`;
    for (const { row, trigger } of automations) {
      if ((trigger.type === 'task_status' && trigger.status === to) || (trigger.type === 'task_blocked' && to === 'blocked')) target.fire(row, cause);
    }
  };

  const onNeedsYou = async (place: string, roomId: string) => {
    const automations = target.automationsIn(place, roomId, ['decision_answered']);
    if (automations.length === 0) return;
    const storage = await storageIn(places, place);
    for (const request of await storage.read((q) => requestsAnsweredSince(q, roomId, startedAt))) {
      if (!firstTime(`request\n${place}\n${roomId}\n${request.number}`)) continue;
      const cause = `${formatId('req', request.number)} "${preview(request.title, 120)}" was answered by ${request.answered_by ?? 'a person'}: "${preview(request.answer_text ?? '', 300)}"`;
      for (const { row } of automations) target.fire(row, cause);
    }
  };

  const failed = (what: string) => (error: unknown) => console.error(`automations: the ${what} trigger failed:`, error);
  const offs = [
    bus.on('task.changed', (e) => void onTask(e.place, e.roomId, e.number).catch(failed('task'))),
    bus.on('needsYou.changed', (e) => void onNeedsYou(e.place, e.roomId).catch(failed('Needs-you'))),
  ];
  return () => offs.forEach((off) => off());
}
