// Message tools (mcp-tools.md §5.1, §5.2, §5.4, §5.5): send_message,
// send_thread_message, read_messages, search_messages, post_status, post_reasoning.
// wait_for_messages lives in wait.ts.
import { z } from 'zod';
import { errors } from '../../domain/errors';
import { msgId, parseNumberedId } from '../../domain/ids';
import { toAgentMessage, toAgentMessages } from '../../domain/messages/agentMessages';
import { boundMessageList } from '../../domain/messages/messageBounds';
import { getMessageRow, pageBefore, totalMessageCount, newestPage, type MessageRow } from '../../domain/messages/read';
import { searchMessages } from '../../domain/messages/search';
import { sendMessage } from '../../domain/messages/send';
import { advanceClientCursor } from '../../domain/rooms/clientRoomSessions';
import { classifyStatusText, setPresence, setReasoning } from '../../domain/sessions/presence';
import type { Queryable, Tx } from '../../store/port';
import { agentIdentity } from '../agentIdentity';
import { loopNotice } from '../loopNotice';
import { readAs, writeAs } from '../acting';
import { readingSession, type CallIdentity } from '../identity';
import type { ToolEnv } from '../services';
import { ARRAY, result, objectResult, messageResult } from '../outputSchemas';
import { additive, defineTool, ignored, readOnly, roomFacade, sessionFacade } from '../toolKit';

const text = z.string().describe('Markdown; @Name mentions an agent.');
/** Fields upstream posting tools take and this app ignores. */
const postingCompat = { conversation_id: ignored(), sender: ignored() };
/** How many rows one backwards step reads when filling a "whole history" read up to 2 MiB. */
const HISTORY_CHUNK = 1_000;

async function postAndShow(env: ToolEnv, args: object, post: (tx: Tx, id: CallIdentity) => Promise<number>) {
  const { value: number, identity } = await writeAs(env, args, post, { posting: true });
  const { message, notice } = await identity.storage.read(async (q) => {
    const row = (await getMessageRow(q, identity.roomId, number))!;
    return {
      message: await toAgentMessage(q, identity.roomId, row),
      notice: await loopNotice(env, q, identity, identity.actor!.agentKey, number),
    };
  });
  return { ...message, room_id: identity.roomId, agent_identity: await agentIdentity(env, identity.session), ...notice };
}

export const sendMessageTool = defineTool({
  name: 'send_message',
  title: 'Send message',
  description: 'Post a message in the room.',
  input: {
    text,
    reply_to: z.string().optional().describe('msg_N to quote.'),
    thread_parent_id: z.string().optional().describe('msg_N of the thread to reply in.'),
    ...postingCompat,
    ...sessionFacade,
  },
  output: messageResult,
  annotations: additive,
  run(args, env) {
    if (args.reply_to !== undefined && args.thread_parent_id !== undefined && args.reply_to !== args.thread_parent_id) throw errors.M1();
    return postAndShow(env, args, (tx, id) =>
      sendMessage(tx, { roomId: id.roomId, author: id.actor!, text: args.text, replyTo: args.reply_to ?? null, threadParentId: args.thread_parent_id ?? null }),
    );
  },
});

export const sendThreadMessageTool = defineTool({
  name: 'send_thread_message',
  title: 'Reply in thread',
  description: 'Reply in a thread.',
  input: { text, thread_parent_id: z.string().describe('msg_N of any message of the thread.'), ...postingCompat, ...sessionFacade },
  output: messageResult,
  annotations: additive,
  run: (args, env) =>
    postAndShow(env, args, (tx, id) => sendMessage(tx, { roomId: id.roomId, author: id.actor!, text: args.text, threadParentId: args.thread_parent_id })),
});

/** The newest rows for a read: `limit` of them, or for 0 as many as fit the 2 MiB bound. */
async function newestRows(q: Queryable, roomId: string, limit: number): Promise<MessageRow[]> {
  if (limit > 0) return newestPage(q, roomId, limit);
  const rows: MessageRow[] = [];
  let bytes = 0;
  let before = Number.MAX_SAFE_INTEGER;
  while (bytes < 2 * 1024 * 1024) {
    const chunk = await pageBefore(q, roomId, before, HISTORY_CHUNK);
    if (chunk.length === 0) break;
    rows.unshift(...chunk);
    bytes += chunk.reduce((sum, r) => sum + r.text.length + r.sender.length + 300, 0);
    before = chunk[0].number;
  }
  return rows;
}

export const readMessagesTool = defineTool({
  name: 'read_messages',
  title: 'Read messages',
  description: 'The room\'s newest messages, oldest first.',
  input: { limit: z.number().int().min(0).default(100).describe('0: all, up to 2 MiB.'), ...roomFacade },
  output: result({ messages: ARRAY }),
  annotations: readOnly,
  run: (args, env) =>
    readAs(env, args, async (identity, q) => {
      const rows = await newestRows(q, identity.roomId, args.limit);
      const { messages } = await toAgentMessages(q, identity.roomId, rows);
      const bounded = boundMessageList(messages, 'newest');
      // Every message returned counts as delivered to the reading session (issue 14).
      const reader = await readingSession(env, q, identity, identity.session);
      if (reader && bounded.messages.length > 0) {
        const [first, last] = [bounded.messages[0].id, bounded.messages.at(-1)!.id].map((id) => parseNumberedId('msg', id)!);
        env.services.delivery.deliveries.record(identity, reader.session_id, first, last);
      }
      const newest = rows.at(-1)?.number;
      if (newest !== undefined) {
        const clientKey = env.conn.clientKey;
        // The client's saved cursor lives on this computer, whatever the room's place.
        void env.services.store.write((tx) => advanceClientCursor(tx, clientKey, identity.place, identity.roomId, newest)).catch(() => undefined);
      }
      const total = await totalMessageCount(q, identity.roomId);
      const partial = bounded.truncated || total > bounded.messages.length;
      return {
        room_id: identity.roomId,
        messages: bounded.messages,
        ...(partial ? { total_message_count: total } : {}),
        ...(bounded.truncated ? { truncated: true, omitted_message_count: bounded.omittedCount } : {}),
      };
    }),
});

export const searchMessagesTool = defineTool({
  name: 'search_messages',
  title: 'Search messages',
  description: 'Full-text search of the room, newest first.',
  input: {
    query: z.string().min(1).max(500).describe('Up to 16 terms, all must match; term* is a prefix.'),
    limit: z.number().int().min(1).max(100).default(20),
    ...roomFacade,
  },
  output: objectResult,
  annotations: readOnly,
  run: (args, env) =>
    readAs(env, args, async (identity, q) => ({
      success: true,
      room_id: identity.roomId,
      query: args.query,
      ...(await searchMessages(q, identity.roomId, args.query, args.limit)),
    })),
});

export const postStatusTool = defineTool({
  name: 'post_status',
  title: 'Post status',
  description: 'Post a status line; your presence (working, reviewing, blocked, idle) follows it.',
  input: { status: z.string(), ...postingCompat, ...sessionFacade },
  output: objectResult,
  annotations: additive,
  async run(args, env) {
    const { value: number, identity } = await writeAs(
      env,
      args,
      async (tx, id) => {
        const n = await sendMessage(tx, { roomId: id.roomId, author: id.actor!, text: `[status] ${args.status}`, kind: 'status' });
        await setPresence(tx, id.session!.session_id, classifyStatusText(args.status), args.status);
        return n;
      },
      { posting: true },
    );
    const row = (await identity.storage.read((q) => getMessageRow(q, identity.roomId, number)))!;
    return {
      success: true,
      status_posted: args.status,
      sender: row.sender,
      agent_identity: await agentIdentity(env, identity.session),
      message_id: msgId(number),
      timestamp: row.created_at,
    };
  },
});

const note = () => z.string().max(4000).optional();
const presence = z.enum(['idle', 'working', 'reviewing', 'blocked']);

export const postReasoningTool = defineTool({
  name: 'post_reasoning',
  title: 'Share reasoning',
  description: 'Show your reasoning on your agent card.',
  input: {
    summary: z.string().max(4000),
    goal: note(),
    checking: note(),
    hypothesis: note(),
    blocker: note(),
    next_action: note(),
    milestone: note().describe('Also posted as a message.'),
    confidence: z.number().min(0).max(1).optional(),
    status: presence.optional(),
    ...sessionFacade,
  },
  output: objectResult,
  annotations: additive,
  async run(args, env) {
    if (args.summary.trim() === '') throw errors.M10();
    const { value, identity } = await writeAs(env, args, async (tx, id) => {
      const update = {
        summary: args.summary, goal: args.goal ?? null, checking: args.checking ?? null, hypothesis: args.hypothesis ?? null,
        blocker: args.blocker ?? null, next_action: args.next_action ?? null, confidence: args.confidence ?? null, created_at: tx.now,
      };
      const sessionId = id.session!.session_id;
      await setReasoning(tx, sessionId, update);
      if (args.status) await setPresence(tx, sessionId, args.status, args.summary);
      const milestone = args.milestone?.trim() ? await sendMessage(tx, { roomId: id.roomId, author: id.actor!, text: args.milestone }) : null;
      return { update, milestone };
    });
    const session = identity.session!;
    return {
      success: true,
      room_id: identity.roomId,
      session: { id: `local_reasoning:${session.actor_label}`, actor_label: session.actor_label, summary: args.summary, status: args.status ?? session.status },
      update: value.update,
      milestone_message_id: value.milestone === null ? null : msgId(value.milestone),
      agent_identity: await agentIdentity(env, session),
    };
  },
});
