// needsYou.*: the one queue across the rooms of every place, answering an item in place (a
// thread reply that wakes the agent) and dismissing it. A team room's requests, reviews and
// blocked tasks reach every person of the team: the first answer wins (the others get
// already_answered, naming who answered); a dismissal hides an item for this person only.
import type { NeedsYouItem, NeedsYouRef } from '../../../shared/model/needsYou';
import type { PersonActor } from '../../domain/actor';
import { appErrors } from '../../domain/errors';
import { formatId, msgId, parseNumberedId, taskId } from '../../domain/ids';
import { listNeedsYou, dismissNeedsYouItem, NEEDS_YOU_MAX_LIMIT, type NeedsYouItem as DomainItem } from '../../domain/knowledge/needsYou';
import { answerRequest } from '../../domain/knowledge/requests';
import { mentionOf } from '../../domain/messages/mentions';
import { getMessageRow, latestNumber } from '../../domain/messages/read';
import { sendMessage } from '../../domain/messages/send';
import { getRoom, requireRoom } from '../../domain/rooms/rooms';
import { getSession } from '../../domain/sessions/sessions';
import { parseTaskId } from '../../domain/tasks';
import type { Queryable, Tx } from '../../store/port';
import { getRequestRow } from '../../store/knowledgeQueries';
import { getTaskRow, type TaskRow } from '../../store/taskQueries';
import { mapInOrder } from '../../domain/inOrder';
import type { ApiContext } from '../context';
import { toTimelineMessage } from '../models/messages';
import { shortNameOf } from '../models/people';
import { creationEventNumber } from '../models/tasks';
import { toAlertItem } from '../models/alerts';
import { toApprovalItem } from '../models/approvals';
import { actOnAlert, dismissAlert } from './alertActions';
import { answererOf } from './approvals';
import { notHereError } from '../../approvals/approvals';
import { LOCAL_PLACE } from '../../store/places';
import type { Methods } from './types';

type NeedsYouMethods = Methods<'needsYou.list' | 'needsYou.answer' | 'needsYou.dismiss' | 'needsYou.act'>;

const rootOf = async (q: Queryable, roomId: string, number: number | null): Promise<number | null> =>
  number === null ? null : ((await getMessageRow(q, roomId, number))?.thread_root_number ?? number);

async function toItem(q: Queryable, place: string, item: Exclude<DomainItem, { kind: 'alert' }>): Promise<NeedsYouItem> {
  const base = { roomName: item.roomName, createdAt: item.createdAt, alert: null, approval: null };
  const at = { roomId: item.roomId, place };
  if (item.kind === 'request') {
    const number = parseNumberedId('req', item.id)!;
    // The answer goes under the source message, else under the request's creation event.
    const row = await getRequestRow(q, item.roomId, number);
    return {
      ...base,
      ref: { kind: 'request', ...at, number },
      reason: item.category,
      title: item.title,
      body: item.body,
      from: shortNameOf(item.requestedBy),
      recommendation: item.recommendation,
      unblocks: item.unblocks,
      threadRootNumber: await rootOf(q, item.roomId, row?.source_message_number ?? row?.event_message_number ?? null),
    };
  }
  if (item.kind === 'mention') {
    return {
      ...base,
      ref: { kind: 'mention', ...at, number: parseNumberedId('msg', item.id)! },
      reason: 'mention',
      title: `${shortNameOf(item.sender)} mentioned you`,
      body: item.text,
      from: shortNameOf(item.sender),
      recommendation: null,
      unblocks: null,
      threadRootNumber: parseNumberedId('msg', item.threadRootId),
    };
  }
  const task = (await getTaskRow(q, item.roomId, parseTaskId(item.id)))!;
  const holder = item.assignee ? shortNameOf(item.assignee) : shortNameOf(task.created_by);
  return {
    ...base,
    ref: { kind: 'task', ...at, number: task.number },
    reason: item.kind === 'review' ? 'task_in_review' : 'task_blocked',
    title: `${item.id}: ${item.title}`,
    body: item.kind === 'review' ? `${holder} handed ${item.id} in for review.` : `${item.id} is blocked (held by ${holder}).`,
    from: holder,
    recommendation: null,
    unblocks: null,
    threadRootNumber: await creationEventNumber(q, task),
  };
}

/** The queue item kind the domain dismisses for a task: its current waiting status, if any. */
function taskItemKind(status: string): 'review' | 'blocked' | null {
  return status === 'in_review' ? 'review' : status === 'blocked' ? 'blocked' : null;
}

/** The holder's current name: a person may have renamed it since it took the task. */
async function holderNameOf(q: Queryable, task: TaskRow): Promise<string | null> {
  const session = task.assignee_session_id ? await getSession(q, task.assignee_session_id) : undefined;
  return session?.display_name ?? (task.assignee ? shortNameOf(task.assignee) : null);
}

/**
 * A person answers a task in review or a blocked task: a thread reply under the task's
 * creation event (or a top-level message) that @mentions its holder, then the item is done.
 */
async function answerTask(tx: Tx, person: PersonActor, reader: string, roomId: string, number: number, text: string): Promise<void> {
  const task = await getTaskRow(tx, roomId, number);
  if (!task) throw appErrors.notFound('Task');
  const discussion = await creationEventNumber(tx, task);
  const name = await holderNameOf(tx, task);
  const holder = name ? `${mentionOf(name)} ` : '';
  await sendMessage(tx, { roomId, author: person, text: `${holder}${text}`, threadParentId: discussion === null ? null : msgId(discussion) });
  const kind = taskItemKind(task.status);
  if (kind) await dismissNeedsYouItem(tx, person, { kind, roomId, id: taskId(number) }, reader);
}

export function needsYouMethods(ctx: ApiContext): NeedsYouMethods {
  const answer = async (tx: Tx, person: PersonActor, reader: string, ref: NeedsYouRef, text: string): Promise<number> => {
    if (ref.kind === 'request') await answerRequest(tx, person, ref.roomId, ref.number, text);
    // A reply to the mention itself wakes its sender (reply_target) and ends the item.
    else if (ref.kind === 'mention') await sendMessage(tx, { roomId: ref.roomId, author: person, text, threadParentId: msgId(ref.number) });
    else await answerTask(tx, person, reader, ref.roomId, ref.number, text);
    // The person's reply is the write's last message.
    return latestNumber(tx, ref.roomId);
  };
  return {
    'needsYou.list': async () => {
      const items: NeedsYouItem[] = [];
      // Every place this app can read now; a team offline adds nothing until it is back.
      for (const storage of await ctx.app.places.reachable()) {
        const personHandles = await ctx.personHandles(storage.place);
        const reader = await ctx.reader(storage.place);
        items.push(
          ...(await storage.read(async (q) => {
            const found = await listNeedsYou(q, { personHandles, reader, limit: NEEDS_YOU_MAX_LIMIT });
            const shown = await mapInOrder(found, (i) => (i.kind === 'alert' ? toAlertItem(ctx.app, q, storage.place, i) : toItem(q, storage.place, i)));
            return shown.filter((item) => item !== null);
          })),
        );
      }
      // Tool uses agents on this computer wait to have allowed, whatever room they are in.
      for (const row of await ctx.app.hub.services.approvals.shown()) {
        const room = row.room_id ? await ctx.read((q) => getRoom(q, row.room_id!)) : undefined;
        items.push(toApprovalItem(row, room?.display_name ?? row.room_id ?? ''));
      }
      // Newest first across places (a stable sort keeps each place's order among equal times).
      items.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
      return { items: items.slice(0, NEEDS_YOU_MAX_LIMIT) };
    },

    'needsYou.act': async ({ item, action, toSessionId }) => {
      if (item.kind === 'approval') throw appErrors.invalidInput('Allow or deny a tool use with its own buttons.');
      if (item.kind !== 'alert') throw appErrors.invalidInput('Only items LetAgents raised take actions; answer or dismiss the others.');
      const place = await ctx.place(item.place);
      await ctx.read((q) => requireRoom(q, item.roomId), place);
      return { removed: await actOnAlert(ctx, { place, roomId: item.roomId }, item.number, action, toSessionId) };
    },

    'needsYou.answer': async ({ item, text }) => {
      const place = await ctx.place(item.place);
      await ctx.read((q) => requireRoom(q, item.roomId), place);
      if (item.kind === 'alert' || item.kind === 'approval') throw appErrors.invalidInput('This item takes an action, not an answer.');
      const person = await ctx.person(place);
      const reader = await ctx.reader(place);
      const number = await ctx.write((tx) => answer(tx, person, reader, item, text), place);
      const viewer = await ctx.viewer(place);
      return ctx.read(async (q) => toTimelineMessage(q, (await getMessageRow(q, item.roomId, number))!, viewer), place);
    },

    'needsYou.dismiss': async ({ item }) => {
      // Dismissing a tool use is denying it: the agent must not wait on for nobody. One that is over leaves the queue.
      if (item.kind === 'approval') {
        // Approvals are this computer's own: one of a team room's agent on another computer is not here to deny.
        if (item.place !== undefined && item.place !== LOCAL_PLACE) throw notHereError(null);
        const approvals = ctx.app.hub.services.approvals;
        if (await approvals.clear(item.number)) return { removed: true };
        const person = await ctx.person();
        return { removed: (await approvals.decide(item.number, 'deny', null, answererOf(ctx, person.label))).settled };
      }
      const place = await ctx.place(item.place);
      if (item.kind === 'alert') {
        await ctx.read((q) => requireRoom(q, item.roomId), place);
        await dismissAlert(ctx, { place, roomId: item.roomId }, item.number);
        return { removed: true };
      }
      const person = await ctx.person(place);
      const reader = await ctx.reader(place);
      const removed = await ctx.write(async (tx) => {
        if (item.kind === 'request') {
          await dismissNeedsYouItem(tx, person, { kind: 'request', roomId: item.roomId, id: formatId('req', item.number) }, reader);
          return true;
        }
        if (item.kind === 'mention') {
          await dismissNeedsYouItem(tx, person, { kind: 'mention', roomId: item.roomId, id: msgId(item.number) }, reader);
          return true;
        }
        await requireRoom(tx, item.roomId);
        const task = await getTaskRow(tx, item.roomId, item.number);
        if (!task) throw appErrors.notFound('Task');
        const kind = taskItemKind(task.status);
        // A task that no longer waits for the person is not in the queue: nothing to remove.
        if (!kind) return false;
        await dismissNeedsYouItem(tx, person, { kind, roomId: item.roomId, id: taskId(item.number) }, reader);
        return true;
      }, place);
      return { removed };
    },
  };
}
