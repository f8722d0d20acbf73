// What people see of a room's messages: the chat timeline (paged back from a cursor, newest
// at the bottom) and a thread (root plus replies). Prompt-only rows never appear here.
import type { Queryable } from '../../store/port';
import {
  selectAfter,
  selectAttachments,
  selectBefore,
  selectMessage,
  selectReplyStats,
  selectThreadReplies,
  type AttachmentRow,
  type MessageRow,
  type PageFilter,
} from '../../store/messageQueries';
import { MAX_NUMBER } from '../ids';

export const DEFAULT_TIMELINE_LIMIT = 50;
export const MAX_TIMELINE_LIMIT = 500;

export interface AttachmentInfo {
  id: string;
  fileName: string;
  mimeType: string;
  sizeBytes: number;
}

export interface TimelineMessage extends MessageRow {
  replyCount: number;
  latestReplyNumber: number | null;
  attachments: AttachmentInfo[];
}

export interface TimelinePage {
  /** Oldest first. */
  messages: TimelineMessage[];
  /** More messages exist beyond this page in the direction it was read. */
  hasMore: boolean;
}

export interface TimelineOptions {
  /** Page back from here (exclusive); omitted means from the newest message. */
  before?: number;
  limit?: number;
  /** Thread replies normally live in the thread panel only. */
  includeThreadReplies?: boolean;
}

const clampLimit = (limit: number | undefined) =>
  Math.min(Math.max(1, Math.floor(limit ?? DEFAULT_TIMELINE_LIMIT)), MAX_TIMELINE_LIMIT);

const filterOf = (includeThreadReplies?: boolean): PageFilter => ({
  hidePromptOnly: true,
  topLevelOnly: !includeThreadReplies,
});

/** A page of the timeline ending just before `before` (or at the newest message). */
export async function timelinePage(q: Queryable, roomId: string, options: TimelineOptions = {}): Promise<TimelinePage> {
  const limit = clampLimit(options.limit);
  const rows = await selectBefore(q, roomId, options.before ?? MAX_NUMBER + 1, limit + 1, filterOf(options.includeThreadReplies));
  const hasMore = rows.length > limit;
  return { messages: await decorate(q, roomId, rows.slice(0, limit).reverse()), hasMore };
}

/** Timeline messages after `afterNumber` (live updates, or reading forward from a search hit). */
export async function timelineAfter(
  q: Queryable,
  roomId: string,
  afterNumber: number,
  options: { limit?: number; includeThreadReplies?: boolean } = {},
): Promise<TimelinePage> {
  const limit = clampLimit(options.limit);
  const rows = await selectAfter(q, roomId, afterNumber, limit + 1, filterOf(options.includeThreadReplies));
  return { messages: await decorate(q, roomId, rows.slice(0, limit)), hasMore: rows.length > limit };
}

export interface ThreadView {
  root: TimelineMessage;
  /** Oldest first. */
  replies: TimelineMessage[];
  hasMore: boolean;
}

/**
 * The thread that `number` belongs to: its root and the replies after `after` (paging
 * forward). Null when the message does not exist.
 */
export async function threadView(
  q: Queryable,
  roomId: string,
  number: number,
  options: { after?: number; limit?: number } = {},
): Promise<ThreadView | null> {
  const message = await selectMessage(q, roomId, number);
  if (!message) return null;
  const rootNumber = message.thread_root_number ?? message.number;
  const root = rootNumber === message.number ? message : await selectMessage(q, roomId, rootNumber);
  if (!root) return null;
  const limit = clampLimit(options.limit ?? MAX_TIMELINE_LIMIT);
  const rows = await selectThreadReplies(q, roomId, rootNumber, options.after ?? 0, limit + 1, { hidePromptOnly: true });
  const [decoratedRoot, ...replies] = await decorate(q, roomId, [root, ...rows.slice(0, limit)]);
  return { root: decoratedRoot, replies, hasMore: rows.length > limit };
}

async function decorate(q: Queryable, roomId: string, rows: readonly MessageRow[]): Promise<TimelineMessage[]> {
  // The SQL already left prompt-only rows out; a thread's root is kept as its anchor.
  const visible = rows;
  const roots = visible.filter((r) => r.thread_root_number === null).map((r) => r.number);
  const stats = new Map((await selectReplyStats(q, roomId, roots)).map((s) => [s.root, s]));
  const attachments = groupAttachments(await selectAttachments(q, roomId, visible.map((r) => r.number)));
  return visible.map((row) => ({
    ...row,
    replyCount: stats.get(row.number)?.count ?? 0,
    latestReplyNumber: stats.get(row.number)?.latest ?? null,
    attachments: attachments.get(row.number) ?? [],
  }));
}

function groupAttachments(rows: readonly AttachmentRow[]): Map<number, AttachmentInfo[]> {
  const out = new Map<number, AttachmentInfo[]>();
  for (const row of rows) {
    const list = out.get(row.message_number) ?? [];
    list.push({ id: row.attachment_id, fileName: row.file_name, mimeType: row.mime_type, sizeBytes: row.size_bytes });
    out.set(row.message_number, list);
  }
  return out;
}
