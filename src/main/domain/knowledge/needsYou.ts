// The person's "Needs you" queue (data-model.md §6, ui.md): one list across live rooms,
// newest first, of open requests, tasks in review, blocked tasks and messages that
// @mention the person. Mentions, review and blocked items can be dismissed; the
// dismissal is kept in needs_you_dismissals (a task comes back once it changes again).
// A mention also leaves once the person has replied in its thread. The items the app raised
// itself (alerts.ts: unanswered messages, untouched tasks, loops, budgets) join while open.
import type { Queryable, TextQuery, Tx } from '../../store/port';
import {
  insertDismissal,
  listMentionCandidates,
  listOpenRequestsAcrossRooms,
  listWaitingTasksAcrossRooms,
} from '../../store/knowledgeQueries';
import { selectMessage } from '../../store/messageQueries';
import { getTaskRow } from '../../store/taskQueries';
import type { PersonActor } from '../actor';
import { appErrors } from '../errors';
import { requireRoom } from '../rooms/rooms';
import { formatId, msgId, parseNumberedId, taskId } from '../ids';
import { normalizeHandle } from '../identity/handles';
import { dismissRequest, type RequestCategory } from './requests';
import { extractMentions } from '../messages/mentions';
import { closeAlert, getAlert } from './alerts';
import { listOpenAlertsAcrossRooms, type OpenAlertQueueRow } from '../../store/alertQueries';

export const NEEDS_YOU_DEFAULT_LIMIT = 50;
export const NEEDS_YOU_MAX_LIMIT = 200;
/** The badge counts up to this many items; the UI shows more as "200+". */
export const NEEDS_YOU_COUNT_CAP = NEEDS_YOU_MAX_LIMIT;
/** How many recent messages containing the person's names are checked for a real @mention. */
const MENTION_SCAN_LIMIT = 500;
/** Mention previews are cut to this many characters, like quoted replies. */
const MENTION_PREVIEW_CHARS = 1000;

interface QueueItemBase {
  roomId: string;
  roomName: string;
  /** req_N, task_N or msg_N in roomId. */
  id: string;
  /** When the item started needing the person: request creation, the task's last change, the message. */
  createdAt: string;
}

export interface RequestItem extends QueueItemBase {
  kind: 'request';
  category: RequestCategory;
  title: string;
  body: string;
  recommendation: string | null;
  unblocks: string | null;
  requestedBy: string;
  sourceMessageId: string | null;
}

export interface TaskItem extends QueueItemBase {
  kind: 'review' | 'blocked';
  title: string;
  assignee: string | null;
}

export interface MentionItem extends QueueItemBase {
  kind: 'mention';
  sender: string;
  text: string;
  /** The thread to answer in: the message's thread root, or the message itself. */
  threadRootId: string;
}

export interface AlertItem extends QueueItemBase {
  kind: 'alert';
  alert: OpenAlertQueueRow;
}

export type NeedsYouItem = RequestItem | TaskItem | MentionItem | AlertItem;
export type NeedsYouKind = NeedsYouItem['kind'];

export interface NeedsYouQuery {
  /** The person's names as handles (GitHub name, login, OS user name), normalised or not. */
  personHandles: readonly string[];
  /** Whose dismissals count: '' on this computer, the app's host id in a team database. */
  reader?: string;
  /** 1–200, default 50. */
  limit?: number;
}

/** The queue across rooms, newest first, at most `limit` items. */
export async function listNeedsYou(q: Queryable, query: NeedsYouQuery): Promise<NeedsYouItem[]> {
  const limit = checkLimit(query.limit ?? NEEDS_YOU_DEFAULT_LIMIT);
  const items: NeedsYouItem[] = [
    ...(await listOpenRequestsAcrossRooms(q, limit)).map(
      (r): RequestItem => ({
        kind: 'request',
        roomId: r.room_id,
        roomName: r.room_name,
        id: formatId('req', r.number),
        createdAt: r.created_at,
        category: r.category,
        title: r.title,
        body: r.body,
        recommendation: r.recommendation,
        unblocks: r.unblocks,
        requestedBy: r.requested_by,
        sourceMessageId: r.source_message_number === null ? null : msgId(r.source_message_number),
      }),
    ),
    ...(await listWaitingTasksAcrossRooms(q, query.reader ?? '', limit)).map(
      (t): TaskItem => ({
        kind: t.status === 'in_review' ? 'review' : 'blocked',
        roomId: t.room_id,
        roomName: t.room_name,
        id: taskId(t.number),
        createdAt: t.updated_at,
        title: t.title,
        assignee: t.assignee,
      }),
    ),
    ...await listMentions(q, query.personHandles, query.reader ?? '', limit),
    // The app's own items are the room's, not a reader's: in a team room, closing one closes it for everyone.
    ...(await listOpenAlertsAcrossRooms(q, limit)).map(
      (a): AlertItem => ({ kind: 'alert', roomId: a.room_id, roomName: a.room_name, id: formatId('alert', a.number), createdAt: a.created_at, alert: a }),
    ),
  ];
  // Stable sort: ties keep requests before tasks before mentions.
  return items.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0)).slice(0, limit);
}

/** The sidebar badge: the number of queue items, counted up to NEEDS_YOU_COUNT_CAP. */
export async function countNeedsYou(q: Queryable, query: Pick<NeedsYouQuery, 'personHandles' | 'reader'>): Promise<number> {
  return (await listNeedsYou(q, { ...query, limit: NEEDS_YOU_COUNT_CAP })).length;
}

/**
 * A person dismisses a queue item: a request is dismissed for good (for everyone in a team
 * room), the others are hidden for `reader` only.
 */
export async function dismissNeedsYouItem(tx: Tx, person: PersonActor, item: { kind: NeedsYouKind; roomId: string; id: string }, reader = ''): Promise<void> {
  if (person.kind !== 'person') throw appErrors.invalidInput('Only people can dismiss "Needs you" items.');
  if (item.kind === 'alert') {
    const number = parseNumberedId('alert', item.id);
    if (number === null || !(await getAlert(tx, item.roomId, number))) throw appErrors.notFound('Item');
    await closeAlert(tx, item.roomId, number, 'dismissed');
    return;
  }
  if (item.kind === 'request') {
    const number = parseNumberedId('req', item.id);
    if (number === null) throw appErrors.notFound('Request');
    await dismissRequest(tx, person, item.roomId, number);
    return;
  }
  await requireRoom(tx, item.roomId);
  if (item.kind === 'mention') {
    const number = parseNumberedId('msg', item.id);
    if (number === null || (await selectMessage(tx, item.roomId, number)) === undefined) throw appErrors.notFound('Message');
    await insertDismissal(tx, item.roomId, 'mention', number, reader);
  } else {
    const number = parseNumberedId('task', item.id);
    if (number === null || (await getTaskRow(tx, item.roomId, number)) === undefined) throw appErrors.notFound('Task');
    await insertDismissal(tx, item.roomId, item.kind, number, reader);
  }
  tx.emit({ type: 'needsYou.changed', roomId: item.roomId });
}

async function listMentions(q: Queryable, personHandles: readonly string[], reader: string, limit: number): Promise<MentionItem[]> {
  const handles = new Set(personHandles.map(normalizeHandle).filter((h) => /[a-z0-9]/.test(h)));
  if (handles.size === 0) return [];
  const items: MentionItem[] = [];
  for (const row of await listMentionCandidates(q, mentionQuery(handles), reader, MENTION_SCAN_LIMIT)) {
    if (!extractMentions(row.text).some((name) => handles.has(normalizeHandle(name)))) continue;
    items.push({
      kind: 'mention',
      roomId: row.room_id,
      roomName: row.room_name,
      id: msgId(row.number),
      createdAt: row.created_at,
      sender: row.sender,
      text: preview(row.text),
      threadRootId: msgId(row.thread_root_number ?? row.number),
    });
    if (items.length === limit) break;
  }
  return items;
}

// Any of the handles, in the message text; a handle with punctuation is a phrase (its
// parts in order), as the tokenizer splits it.
function mentionQuery(handles: ReadonlySet<string>): TextQuery {
  return { terms: [...handles].map((text) => ({ text, prefix: false })), match: 'any', columns: 'text' };
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > NEEDS_YOU_MAX_LIMIT) {
    throw appErrors.invalidInput(`limit must be an integer from 1 to ${NEEDS_YOU_MAX_LIMIT}.`);
  }
  return limit;
}

function preview(text: string): string {
  const chars = Array.from(text);
  return chars.length <= MENTION_PREVIEW_CHARS ? text : `${chars.slice(0, MENTION_PREVIEW_CHARS).join('')}…`;
}
