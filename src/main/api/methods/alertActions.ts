// What a person does to a "Needs you" item the app raised (issue 14): remind the agent (a
// short mention that wakes it once it listens), hand the work to another agent, resume or
// stop agents the loop guard paused, resume a managed agent held by its budget. Dismissing
// a loop item resumes its agents, so no pause is left behind unseen. Everything happens in
// the room's place (`room`): a team room's items live in the team's database.
import type { AlertAction } from '../../../shared/model/delivery';
import type { PersonActor } from '../../domain/actor';
import { listOf } from '../../../shared/words';
import { appErrors } from '../../domain/errors';
import { msgId, taskId } from '../../domain/ids';
import { alertDetail, closeAlert, getAlert, reviseAlert, type AlertRow } from '../../domain/knowledge/alerts';
import { mentionOf as mention } from '../../domain/messages/mentions';
import { getMessageRow } from '../../domain/messages/read';
import { sendMessage } from '../../domain/messages/send';
import { resolveWritableRoom } from '../../domain/rooms/rooms';
import { getSession, listRoomSessions, type SessionRow } from '../../domain/sessions/sessions';
import { postSystemEvent } from '../../domain/systemEvents';
import { activeWorkLease } from '../../domain/tasks/leases';
import { reassignTaskAsPerson } from '../../domain/tasks/personActions';
import { sessionsInLoop } from '../../delivery/loopGuard';
import { getManagedAgentRow, getManagedMember } from '../../store/managedAgentQueries';
import type { PlacedRoom } from '../../store/places';
import type { Queryable, Tx } from '../../store/port';
import { getTaskRow } from '../../store/taskQueries';
import type { ApiContext } from '../context';
import { threadOf } from '../models/alerts';

export async function actOnAlert(ctx: ApiContext, room: PlacedRoom, number: number, action: AlertAction, toSessionId?: string): Promise<boolean> {
  const { place } = room;
  const alert = await ctx.read((q) => getAlert(q, room.roomId, number), place);
  if (!alert || alert.status !== 'open') throw appErrors.notFound('Item');
  const allowed: Record<AlertAction, readonly AlertRow['kind'][]> = {
    remind: ['unanswered', 'idle_task'], handoff: ['unanswered', 'idle_task'], resume: ['loop'], stop: ['loop'], resume_agent: ['agent_budget'],
  };
  if (!allowed[action].includes(alert.kind)) throw appErrors.invalidInput('That action does not apply to this item.');
  const person = await ctx.person(place);
  switch (action) {
    case 'remind':
      await ctx.write((tx) => remind(tx, person, alert), place);
      return false;
    case 'handoff':
      await ctx.write((tx) => handOff(tx, person, alert, toSessionId), place);
      return true;
    case 'resume':
      await resumeLoop(ctx, place, alert, person);
      return true;
    case 'stop':
      await stopLoop(ctx, place, alert, person);
      return true;
    case 'resume_agent': {
      const member = await ctx.read(async (q) => {
        const session = alert.session_id ? await getSession(q, alert.session_id) : undefined;
        return session?.worker_id ? getManagedMember(q, session.worker_id, session.room_id) : undefined;
      }, place);
      if (!member) throw appErrors.notFound('Managed agent');
      // In a team room, the app of the computer that runs it resumes it.
      if (!(await ctx.app.core.store.read((q) => getManagedAgentRow(q, member.agent_id)))) {
        throw appErrors.invalidInput(`This agent runs on ${member.host_label ?? 'another computer'}: resume it there.`);
      }
      await ctx.app.agents.resume(member.agent_id, person);
      return true;
    }
  }
}

/** Dismissing an item: a loop's agents are resumed with it. */
export async function dismissAlert(ctx: ApiContext, room: PlacedRoom, number: number): Promise<void> {
  const { place, roomId } = room;
  const alert = await ctx.read((q) => getAlert(q, roomId, number), place);
  if (alert?.kind === 'loop' && alert.status === 'open') return resumeLoop(ctx, place, alert, await ctx.person(place));
  await ctx.write(async (tx) => {
    if (!(await closeAlert(tx, roomId, number, 'dismissed')) && !(await getAlert(tx, roomId, number))) throw appErrors.notFound('Item');
  }, place);
}

async function agentOf(tx: Tx, alert: AlertRow): Promise<SessionRow> {
  const session = alert.session_id ? await getSession(tx, alert.session_id) : undefined;
  if (!session) throw appErrors.notFound('Agent session');
  return session;
}

/** A person's thread reply under the item's message or task discussion (top level when it has none). */
async function postInThread(tx: Tx, person: PersonActor, alert: AlertRow, text: string): Promise<void> {
  await resolveWritableRoom(tx, alert.room_id);
  const root = await threadOf(tx, alert);
  await sendMessage(tx, { roomId: alert.room_id, author: person, text, threadParentId: root === null ? null : msgId(root) });
}

async function remind(tx: Tx, person: PersonActor, alert: AlertRow): Promise<void> {
  const agent = await agentOf(tx, alert);
  const text =
    alert.kind === 'unanswered'
      ? `${mention(agent.display_name)} a reminder: please read ${msgId(alert.message_number!)} and reply.`
      : `${mention(agent.display_name)} a reminder: ${taskId(alert.task_number!)} is yours; please start on it.`;
  await postInThread(tx, person, alert, text);
  await reviseAlert(tx, alert, alert.body, { ...alertDetail(alert), remindedAt: tx.now });
}

/** The task the item is about: the handed task, or one the message names that the silent agent holds. */
async function taskOfAlert(q: Queryable, alert: AlertRow, agent: SessionRow): Promise<number | null> {
  if (alert.task_number !== null) return alert.task_number;
  const text = (await getMessageRow(q, alert.room_id, alert.message_number!))?.text ?? '';
  for (const match of text.matchAll(/\btask_([1-9][0-9]{0,9})\b/g)) {
    const task = await getTaskRow(q, alert.room_id, Number(match[1]));
    if (task && (await activeWorkLease(q, task))?.agent_key === agent.agent_key) return task.number;
  }
  return null;
}

async function handOff(tx: Tx, person: PersonActor, alert: AlertRow, toSessionId: string | undefined): Promise<void> {
  const agent = await agentOf(tx, alert);
  const target = toSessionId ? await getSession(tx, toSessionId) : undefined;
  if (!target || target.room_id !== alert.room_id || target.session_kind !== 'worker' || target.ended_at || target.agent_key === agent.agent_key) {
    throw appErrors.invalidInput('Choose another agent in this room to hand it to.');
  }
  const task = await taskOfAlert(tx, alert, agent);
  if (task !== null) await reassignTaskAsPerson(tx, alert.room_id, task, person, { agentKey: target.agent_key, sessionId: target.session_id });
  if (alert.kind === 'unanswered') {
    const also = task !== null ? ` I handed ${taskId(task)} to you.` : '';
    await postInThread(tx, person, alert, `${mention(target.display_name)} ${agent.display_name} hasn't picked up ${msgId(alert.message_number!)}; could you take it?${also}`);
  }
  await closeAlert(tx, alert.room_id, alert.number, 'resolved');
}

async function pausedSessions(ctx: ApiContext, room: PlacedRoom): Promise<SessionRow[]> {
  const pause = ctx.app.hub.delivery.loopGuard.pause(room);
  if (!pause) return [];
  return sessionsInLoop(await ctx.read((q) => listRoomSessions(q, room.roomId), room.place), pause).filter((s) => !s.ended_at);
}

async function resumeLoop(ctx: ApiContext, place: string, alert: AlertRow, person: PersonActor): Promise<void> {
  const room = { place, roomId: alert.room_id };
  const names = listOf([...new Set((await pausedSessions(ctx, room)).map((s) => s.display_name))]);
  await ctx.write(async (tx) => {
    if (await closeAlert(tx, alert.room_id, alert.number, 'resolved')) {
      await postSystemEvent(tx, alert.room_id, `${person.label} resumed ${names}: their messages wake each other again.`, person);
    }
  }, place);
  ctx.app.hub.delivery.loopGuard.resume(room);
}

/** Pauses the managed agents among them and tells every one of them to stop; the loop guard starts counting afresh. */
async function stopLoop(ctx: ApiContext, place: string, alert: AlertRow, person: PersonActor): Promise<void> {
  const room = { place, roomId: alert.room_id };
  const sessions = await pausedSessions(ctx, room);
  for (const session of sessions) {
    // The managed agents this app runs (in a team room, another machine's app pauses its own).
    const member = session.worker_id ? await ctx.read((q) => getManagedMember(q, session.worker_id!, session.room_id), place) : undefined;
    const managed = member ? await ctx.app.core.store.read((q) => getManagedAgentRow(q, member.agent_id)) : undefined;
    if (managed && managed.desired_state === 'running') await ctx.app.agents.pause(managed.agent_id);
  }
  ctx.app.hub.delivery.loopGuard.resume(room);
  await ctx.write(async (tx) => {
    await closeAlert(tx, alert.room_id, alert.number, 'resolved');
    const names = [...new Set(sessions.map((s) => mention(s.display_name)))].join(' ');
    if (names) await sendMessage(tx, { roomId: alert.room_id, author: person, text: `${names} please stop this exchange and wait for a person.` });
  }, place);
}
