// The agent-readable message object (mcp-tools.md §2.4): ids, identity, quoted reply
// targets (looked up within a budget when outside the result), thread fields, inline
// attachments and the agent-prompt fields.
import type { Queryable } from '../../store/port';
import { selectAttachments, selectMessage, type MessageRow } from '../../store/messageQueries';
import { msgId } from '../ids';
import { toAgentAttachment, type AgentAttachment } from './agentAttachments';
import { cutToChars, utf8Bytes } from './validation';

export const MAX_QUOTE_CHARS = 1_000;
export const THREAD_CONTEXT_MAX_LOOKUPS = 16;
export const THREAD_CONTEXT_MAX_BYTES = 256 * 1024;

export interface AgentReplyTo {
  id: string;
  sender?: string;
  text?: string;
  source?: MessageRow['source'];
  timestamp?: string;
}

export interface AgentThreadInfo {
  parent_id: string | null;
  root_message_id: string;
  reply_to_id: string | null;
  is_thread_reply: boolean;
  reply_count_in_result: number;
  latest_reply_id_in_result: string | null;
}

export interface AgentMessage {
  id: string;
  kind: MessageRow['kind'];
  source: MessageRow['source'];
  sender: string;
  text: string;
  timestamp: string;
  agent_identity: { actor_label: string; agent_key: string | null; agent_session_id: string | null } | null;
  agent_prompt_kind: MessageRow['agent_prompt_kind'];
  attachments: AgentAttachment[];
  reply_to: AgentReplyTo | null;
  thread_parent_id?: string | null;
  thread_root_id?: string;
  thread_reply_to_id?: string | null;
  thread?: AgentThreadInfo;
  visible_text?: string;
  agent_prompt?: string;
  prompt_injected?: boolean;
  content_truncated?: true;
}

/** What reply-target lookups may still spend; share one across the windows of a wait call. */
export interface ThreadContextBudget {
  lookupsLeft: number;
  bytesLeft: number;
  /** Set once any call using this budget had to leave a target as `{id}`. */
  truncated: boolean;
}

export function createThreadContextBudget(): ThreadContextBudget {
  return { lookupsLeft: THREAD_CONTEXT_MAX_LOOKUPS, bytesLeft: THREAD_CONTEXT_MAX_BYTES, truncated: false };
}

export interface AgentMessageOptions {
  budget?: ThreadContextBudget;
  /** The prompt an agent should act on for a prompt row; defaults to the row's text. */
  agentPromptText?: (row: MessageRow) => string | null;
}

export interface AgentMessages {
  messages: AgentMessage[];
  /** Some reply target outside the result could not be looked up within the budget. */
  threadContextTruncated: boolean;
}

/** Builds agent-readable messages for `rows` (one room, any order kept as given). */
export async function toAgentMessages(
  q: Queryable,
  roomId: string,
  rows: readonly MessageRow[],
  options: AgentMessageOptions = {},
): Promise<AgentMessages> {
  const ctx: LookupContext = {
    q,
    roomId,
    inResult: new Map(rows.map((row) => [row.number, row])),
    lookups: new Map(),
    budget: options.budget ?? createThreadContextBudget(),
    truncated: false,
  };
  const threads = threadsInResult(rows);
  const attachments = new Map<number, AgentAttachment[]>();
  for (const att of await selectAttachments(q, roomId, rows.map((r) => r.number))) {
    const list = attachments.get(att.message_number) ?? [];
    list.push(toAgentAttachment(att));
    attachments.set(att.message_number, list);
  }
  // Reply targets outside the result are looked up first, in row order (the budget's order).
  for (const row of rows) await lookUpReplyTarget(ctx, row);
  const messages = rows.map((row) => {
    const message: AgentMessage = {
      id: msgId(row.number),
      kind: row.kind,
      source: row.source,
      sender: row.sender,
      text: row.text,
      timestamp: row.created_at,
      agent_identity:
        row.source === 'agent'
          ? { actor_label: row.sender, agent_key: row.publisher_agent_key, agent_session_id: row.publisher_session_id }
          : null,
      agent_prompt_kind: row.agent_prompt_kind,
      attachments: attachments.get(row.number) ?? [],
      reply_to: replyToOf(ctx, row),
    };
    Object.assign(message, threadFields(row, threads));
    if (row.agent_prompt_kind !== null) {
      message.visible_text = row.text;
      message.agent_prompt = options.agentPromptText?.(row) ?? row.text;
      message.prompt_injected = row.agent_prompt_kind === 'inline';
    }
    return message;
  });
  return { messages, threadContextTruncated: ctx.truncated };
}

/** One message on its own (e.g. the result of send_message). */
export async function toAgentMessage(q: Queryable, roomId: string, row: MessageRow, options: AgentMessageOptions = {}): Promise<AgentMessage> {
  return (await toAgentMessages(q, roomId, [row], options)).messages[0];
}

function quoteOf(target: MessageRow): AgentReplyTo {
  return {
    id: msgId(target.number),
    sender: target.sender,
    text: cutToChars(target.text, MAX_QUOTE_CHARS),
    source: target.source,
    timestamp: target.created_at,
  };
}

interface LookupContext {
  q: Queryable;
  roomId: string;
  inResult: ReadonlyMap<number, MessageRow>;
  /** Targets already looked up in this call: the row, 'missing', or 'over-budget'. */
  lookups: Map<number, MessageRow | 'missing' | 'over-budget'>;
  budget: ThreadContextBudget;
  truncated: boolean;
}

/** Looks up `row`'s reply target when it is outside the result and not looked up yet. */
async function lookUpReplyTarget(ctx: LookupContext, row: MessageRow): Promise<void> {
  const number = row.reply_to_number;
  if (number === null || ctx.inResult.has(number) || ctx.lookups.has(number)) return;
  ctx.lookups.set(number, await lookUp(ctx, number));
}

/** The quoted reply target, after lookUpReplyTarget. */
function replyToOf(ctx: LookupContext, row: MessageRow): AgentReplyTo | null {
  const number = row.reply_to_number;
  if (number === null) return null;
  const local = ctx.inResult.get(number);
  if (local) return quoteOf(local);
  const found = ctx.lookups.get(number)!;
  if (found === 'over-budget') {
    ctx.truncated = true;
    ctx.budget.truncated = true;
  }
  return typeof found === 'string' ? { id: msgId(number) } : quoteOf(found);
}

async function lookUp(ctx: LookupContext, number: number): Promise<MessageRow | 'missing' | 'over-budget'> {
  if (ctx.budget.lookupsLeft <= 0) return 'over-budget';
  ctx.budget.lookupsLeft--;
  const target = await selectMessage(ctx.q, ctx.roomId, number);
  if (!target) return 'missing';
  const cost = utf8Bytes(target.text) + utf8Bytes(target.sender);
  if (cost > ctx.budget.bytesLeft) return 'over-budget';
  ctx.budget.bytesLeft -= cost;
  return target;
}

interface ThreadInResult {
  count: number;
  latest: number | null;
}

function threadsInResult(rows: readonly MessageRow[]): Map<number, ThreadInResult> {
  const threads = new Map<number, ThreadInResult>();
  for (const row of rows) {
    if (row.thread_root_number === null) continue;
    const t = threads.get(row.thread_root_number) ?? { count: 0, latest: null };
    t.count++;
    t.latest = Math.max(t.latest ?? 0, row.number);
    threads.set(row.thread_root_number, t);
  }
  return threads;
}

/** Thread replies, and roots whose replies are in the same result, carry thread fields. */
function threadFields(row: MessageRow, threads: ReadonlyMap<number, ThreadInResult>): Partial<AgentMessage> {
  const isReply = row.thread_root_number !== null;
  const rootNumber = row.thread_root_number ?? row.number;
  const inResult = threads.get(rootNumber);
  if (!isReply && !inResult) return {};
  const rootId = msgId(rootNumber);
  const replyToId = isReply ? msgId(row.reply_to_number ?? rootNumber) : null;
  const counts = {
    reply_count_in_result: inResult?.count ?? 0,
    latest_reply_id_in_result: inResult?.latest ? msgId(inResult.latest) : null,
  };
  return {
    thread_parent_id: isReply ? rootId : null,
    thread_root_id: rootId,
    thread_reply_to_id: replyToId,
    thread: {
      parent_id: isReply ? rootId : null,
      root_message_id: rootId,
      reply_to_id: replyToId,
      is_thread_reply: isReply,
      ...counts,
    },
  };
}
