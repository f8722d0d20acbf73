// The "Needs you" items the app raised (issue 14) as the queue shows them: what the item is
// about, the agent it concerns with its reachability now, who the work could go to instead,
// the prompt to paste into the agent's chat, and what the person can do. `q` reads the room's place.
import type { AlertAction } from '../../../shared/model/delivery';
import type { NeedsYouItem } from '../../../shared/model/needsYou';
import { REACHABILITY_ORDER } from '../../../shared/model/workers';
import type { AppParts } from '../appParts';
import { reachabilityOf } from '../../delivery/reachabilityOf';
import { mapInOrder } from '../../domain/inOrder';
import { alertDetail, type AlertRow } from '../../domain/knowledge/alerts';
import type { AlertItem } from '../../domain/knowledge/needsYou';
import { getMessageRow } from '../../domain/messages/read';
import { getSession, listRoomSessions, type SessionRow } from '../../domain/sessions/sessions';
import type { Queryable } from '../../store/port';
import { getTaskRow } from '../../store/taskQueries';
import { creationEventNumber } from './tasks';

const ACTIONS: Readonly<Record<AlertRow['kind'], AlertAction[]>> = {
  unanswered: ['remind', 'handoff'],
  idle_task: ['remind', 'handoff'],
  loop: ['resume', 'stop'],
  room_budget: [],
  agent_budget: ['resume_agent'],
  automation: [],
};

/** The queue item of an open alert; null for one that no longer applies (yesterday's budget). */
export async function toAlertItem(app: AppParts, q: Queryable, place: string, item: AlertItem): Promise<NeedsYouItem | null> {
  const a = item.alert;
  const detail = alertDetail<{ prompt: string; remindedAt: string; day: string; cantRun: string }>(a);
  if (a.kind === 'room_budget' && detail.day !== app.hub.delivery.meter.day(place)) return null;
  const session = a.session_id ? await getSession(q, a.session_id) : undefined;
  const agentRef = async (s: SessionRow) => ({ sessionId: s.session_id, name: s.display_name, reachability: await reachabilityOf(q, app.hub.delivery, place, s) });
  const others =
    a.kind === 'unanswered' || a.kind === 'idle_task'
      ? (
          await mapInOrder(
            (await listRoomSessions(q, a.room_id)).filter((s) => s.session_kind === 'worker' && !s.ended_at && s.agent_key !== session?.agent_key),
            agentRef,
          )
        ).sort((x, y) => REACHABILITY_ORDER.indexOf(x.reachability) - REACHABILITY_ORDER.indexOf(y.reachability))
      : [];
  return {
    ref: { kind: 'alert', roomId: a.room_id, place, number: a.number },
    // An agent that takes no turns until resumed: because of its budget, or its CLI cannot run.
    reason: a.kind === 'agent_budget' && detail.cantRun ? 'agent_cant_run' : a.kind === 'automation' ? 'automation_failed' : a.kind,
    roomName: item.roomName,
    createdAt: a.created_at,
    title: a.title,
    body: a.body,
    from: session?.display_name ?? 'LetAgents',
    recommendation: null,
    unblocks: null,
    threadRootNumber: await threadOf(q, a),
    approval: null,
    alert: {
      actions: ACTIONS[a.kind],
      prompt: detail.prompt ?? null,
      agent: session ? await agentRef(session) : null,
      handoffTo: others,
      remindedAt: detail.remindedAt ?? null,
    },
  };
}

/** Where the item's conversation lives: the message's thread, or the task's discussion. */
export async function threadOf(q: Queryable, a: AlertRow): Promise<number | null> {
  if (a.message_number !== null) return (await getMessageRow(q, a.room_id, a.message_number))?.thread_root_number ?? a.message_number;
  if (a.task_number !== null) {
    const task = await getTaskRow(q, a.room_id, a.task_number);
    return task ? creationEventNumber(q, task) : null;
  }
  return null;
}
