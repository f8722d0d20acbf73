// Stored messages as the timeline and thread panel show them (the contract's
// TimelineMessage): sender as a Person, the quoted message, reply stats, and whether
// the text mentions the person.
import type { TimelineMessage } from '../../../shared/model/messages';
import { normalizeHandle } from '../../domain/identity/handles';
import { msgId } from '../../domain/ids';
import { extractMentions } from '../../domain/messages/mentions';
import { boundTextForView } from '../../domain/messages/messageBounds';
import { getMessageRow, type MessageRow } from '../../domain/messages/read';
import { cutToChars } from '../../domain/messages/validation';
import type { Queryable } from '../../store/port';
import { parseRoute, previewOfRoute } from '../../domain/activation/untagged';
import { listRoomSessions } from '../../domain/sessions/sessions';
import { senderOf } from './people';

/** Quotes show at most this many characters (data-model.md §8). */
const QUOTE_CHARS = 1000;
/** Broadcasts that reach the person too; "@agents" is for agents only. */
const PERSON_BROADCASTS: ReadonlySet<string> = new Set(['all', 'here', 'everyone']);

export interface ReplyStats {
  replyCount: number;
  latestReplyNumber: number | null;
}

const NO_REPLIES: ReplyStats = { replyCount: 0, latestReplyNumber: null };

/** Who is looking: their mention handles, and in a team the label they post under (null on this computer, where every person's message is theirs). */
export interface Viewer {
  handles: readonly string[];
  label: string | null;
}

/** True for the viewer's own message: a team room has other people's messages too. */
const fromViewer = (row: Pick<MessageRow, 'source' | 'sender'>, viewer: Viewer): boolean =>
  row.source === 'human' && (viewer.label === null || row.sender === viewer.label);

/** True when someone else's text @mentions one of the person's handles, or everyone. */
export function mentionsPerson(row: Pick<MessageRow, 'source' | 'text'>, handles: readonly string[]): boolean {
  // The person's own messages never "mention you", whatever they say.
  if (row.source === 'human') return false;
  return extractMentions(row.text).some((name) => {
    const handle = normalizeHandle(name);
    return PERSON_BROADCASTS.has(handle) || handles.includes(handle);
  });
}

/** Maps a stored row; a message without stats (just posted, or a reply) has no replies. */
export async function toTimelineMessage(q: Queryable, row: MessageRow, viewer: Viewer, stats: ReplyStats = NO_REPLIES): Promise<TimelineMessage> {
  const bounded = boundTextForView(row.text);
  return {
    id: msgId(row.number),
    number: row.number,
    roomId: row.room_id,
    kind: row.kind,
    source: row.source,
    sender: senderOf(row),
    text: bounded.text,
    ...(bounded.truncated ? { textTruncated: true as const } : {}),
    createdAt: row.created_at,
    replyTo: await quoteOf(q, row),
    threadRootNumber: row.thread_root_number,
    replyCount: stats.replyCount,
    lastReplyAt: stats.latestReplyNumber === null ? null : ((await getMessageRow(q, row.room_id, stats.latestReplyNumber))?.created_at ?? null),
    mentionsYou: mentionsPerson({ source: row.source, text: bounded.text }, viewer.handles),
    fromYou: fromViewer(row, viewer),
    ...(row.routed_to === null ? {} : await wakesOf(q, row)),
  };
}

/** Whom a person's message that named nobody woke, as its post decided (the receipts' "→ Cedar"). */
async function wakesOf(q: Queryable, row: MessageRow): Promise<Pick<TimelineMessage, 'wakes'>> {
  const route = parseRoute(row.routed_to);
  if (route === null) return {};
  const sessions = route.to === 'nobody' ? [] : await listRoomSessions(q, row.room_id);
  const nameOf = (key: string) => sessions.find((s) => s.agent_key === key && s.session_kind === 'worker')?.display_name ?? 'an agent that left';
  return { wakes: previewOfRoute(route, nameOf) };
}

// A reply to the thread's root needs no quote: the thread panel shows the root already.
async function quoteOf(q: Queryable, row: MessageRow): Promise<TimelineMessage['replyTo']> {
  const target = row.reply_to_number;
  if (target === null || target === row.thread_root_number) return null;
  const quoted = await getMessageRow(q, row.room_id, target);
  if (!quoted) return null;
  return { number: quoted.number, senderName: senderOf(quoted).name, excerpt: cutToChars(quoted.text, QUOTE_CHARS) };
}
