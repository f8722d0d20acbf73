// needsYou.*: the one queue across rooms, answering an item in place (a thread reply that
// wakes the agent) and dismissing it.
import type { NeedsYouItem, NeedsYouRef } from '../../../shared/model/needsYou';
import type { PersonActor } from '../../domain/actor';
import { appErrors } from '../../domain/errors';
import { formatId, msgId, parseNumberedId, taskId } from '../../domain/ids';
import { listNeedsYou, dismissNeedsYouItem, NEEDS_YOU_MAX_LIMIT, type NeedsYouItem as DomainItem } from '../../domain/knowledge/needsYou';
import { answerRequest } from '../../domain/knowledge/requests';
import { getMessageRow, latestNumber } from '../../domain/messages/read';
import { sendMessage } from '../../domain/messages/send';
import { requireRoom } from '../../domain/rooms/rooms';
import { getSession } from '../../domain/sessions/sessions';
import { parseTaskId } from '../../domain/tasks';
import type { Db } from '../../store/database';
import { getRequestRow } from '../../store/knowledgeQueries';
import type { Tx } from '../../store/store';
import { getTaskRow, type TaskRow } from '../../store/taskQueries';
import type { ApiContext } from '../context';
import { toTimelineMessage } from '../models/messages';
import { shortNameOf } from '../models/people';
import { creationEventNumber } from '../models/tasks';
import { toAlertItem } from '../models/alerts';
import { actOnAlert, dismissAlert } from './alertActions';
import type { Methods } from './types';

type NeedsYouMethods = Methods<'needsYou.list' | 'needsYou.answer' | 'needsYou.dismiss' | 'needsYou.act'>;

const rootOf = (db: Db, roomId: string, number: number | null): number | null =>
  number === null ? null : (getMessageRow(db, roomId, number)?.thread_root_number ?? number);

function toItem(db: Db, item: Exclude<DomainItem, { kind: 'alert' }>): NeedsYouItem {
  const base = { roomName: item.roomName, createdAt: item.createdAt, alert: null };
  if (item.kind === 'request') {
    const number = parseNumberedId('req', item.id)!;
    // The answer goes under the source message, else under the request's creation event.
    const row = getRequestRow(db, item.roomId, number);
    return {
      ...base,
      ref: { kind: 'request', roomId: item.roomId, number },
      reason: item.category,
      title: item.title,
      body: item.body,
      from: shortNameOf(item.requestedBy),
      recommendation: item.recommendation,
      unblocks: item.unblocks,
      threadRootNumber: rootOf(db, item.roomId, row?.source_message_number ?? row?.event_message_number ?? null),
    };
  }
  if (item.kind === 'mention') {
    return {
      ...base,
      ref: { kind: 'mention', roomId: item.roomId, number: parseNumberedId('msg', item.id)! },
      reason: 'mention',
      title: `${shortNameOf(item.sender)} mentioned you`,
      body: item.text,
      from: shortNameOf(item.sender),
      recommendation: null,
      unblocks: null,
      threadRootNumber: parseNumberedId('msg', item.threadRootId),
    };
  }
  const task = getTaskRow(db, item.roomId, parseTaskId(item.id))!;
  const holder = item.assignee ? shortNameOf(item.assignee) : shortNameOf(task.created_by);
  return {
    ...base,
    ref: { kind: 'task', roomId: item.roomId, number: task.number },
    reason: item.kind === 'review' ? 'task_in_review' : 'task_blocked',
    title: `${item.id}: ${item.title}`,
    body: item.kind === 'review' ? `${holder} handed ${item.id} in for review.` : `${item.id} is blocked (held by ${holder}).`,
    from: holder,
    recommendation: null,
    unblocks: null,
    threadRootNumber: creationEventNumber(db, task),
  };
}

/** The queue item kind the domain dismisses for a task: its current waiting status, if any. */
function taskItemKind(status: string): 'review' | 'blocked' | null {
  return status === 'in_review' ? 'review' : status === 'blocked' ? 'blocked' : null;
}

/** The holder's current name: a person may have renamed it since it took the task. */
function holderNameOf(db: Db, task: TaskRow): string | null {
  const session = task.assignee_session_id ? getSession(db, task.assignee_session_id) : undefined;
  return session?.display_name ?? (task.assignee ? shortNameOf(task.assignee) : null);
}

/**
 * A person answers a task in review or a blocked task: a thread reply under the task's
 * creation event (or a top-level message) that @mentions its holder, then the item is done.
 */
function answerTask(tx: Tx, person: PersonActor, roomId: string, number: number, text: string): void {
  const task = getTaskRow(tx.db, roomId, number);
  if (!task) throw appErrors.notFound('Task');
  const discussion = creationEventNumber(tx.db, task);
  // Without whitespace, so "@Code Bot" still reads as one mention and wakes it.
  const name = holderNameOf(tx.db, task);
  const holder = name ? `@${name.replace(/\s+/g, '')} ` : '';
  sendMessage(tx, { roomId, author: person, text: `${holder}${text}`, threadParentId: discussion === null ? null : msgId(discussion) });
  const kind = taskItemKind(task.status);
  if (kind) dismissNeedsYouItem(tx, person, { kind, roomId, id: taskId(number) });
}

export function needsYouMethods(ctx: ApiContext): NeedsYouMethods {
  const answer = (tx: Tx, ref: NeedsYouRef, text: string): number => {
    const person = ctx.person();
    if (ref.kind === 'request') answerRequest(tx, person, ref.roomId, ref.number, text);
    // A reply to the mention itself wakes its sender (reply_target) and ends the item.
    else if (ref.kind === 'mention') sendMessage(tx, { roomId: ref.roomId, author: person, text, threadParentId: msgId(ref.number) });
    else answerTask(tx, person, ref.roomId, ref.number, text);
    // The person's reply is the write's last message.
    return latestNumber(tx.db, ref.roomId);
  };
  return {
    'needsYou.list': () => ({
      items: listNeedsYou(ctx.db, { personHandles: ctx.personHandles(), limit: NEEDS_YOU_MAX_LIMIT }).flatMap((i) => {
        const item = i.kind === 'alert' ? toAlertItem(ctx.app, ctx.db, i) : toItem(ctx.db, i);
        return item ? [item] : [];
      }),
    }),

    'needsYou.act': async ({ item, action, toSessionId }) => {
      if (item.kind !== 'alert') throw appErrors.invalidInput('Only items LetAgents raised take actions; answer or dismiss the others.');
      requireRoom(ctx.db, item.roomId);
      return { removed: await actOnAlert(ctx, item.roomId, item.number, action, toSessionId) };
    },

    'needsYou.answer': async ({ item, text }) => {
      requireRoom(ctx.db, item.roomId);
      if (item.kind === 'alert') throw appErrors.invalidInput('This item takes an action, not an answer.');
      const number = await ctx.write((tx) => answer(tx, item, text));
      return toTimelineMessage(ctx.db, getMessageRow(ctx.db, item.roomId, number)!, ctx.personHandles());
    },

    'needsYou.dismiss': async ({ item }) => {
      if (item.kind === 'alert') {
        requireRoom(ctx.db, item.roomId);
        await dismissAlert(ctx, item.roomId, item.number);
        return { removed: true };
      }
      const removed = await ctx.write((tx) => {
        const person = ctx.person();
        if (item.kind === 'request') {
          dismissNeedsYouItem(tx, person, { kind: 'request', roomId: item.roomId, id: formatId('req', item.number) });
          return true;
        }
        if (item.kind === 'mention') {
          dismissNeedsYouItem(tx, person, { kind: 'mention', roomId: item.roomId, id: msgId(item.number) });
          return true;
        }
        requireRoom(tx.db, item.roomId);
        const task = getTaskRow(tx.db, item.roomId, item.number);
        if (!task) throw appErrors.notFound('Task');
        const kind = taskItemKind(task.status);
        // A task that no longer waits for the person is not in the queue: nothing to remove.
        if (!kind) return false;
        dismissNeedsYouItem(tx, person, { kind, roomId: item.roomId, id: taskId(item.number) });
        return true;
      });
      return { removed };
    },
  };
}
