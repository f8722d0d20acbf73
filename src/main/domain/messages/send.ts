// Posting a message (mcp-tools.md §5.1, data-model.md §3): validation, the reply target,
// thread root normalisation, and the insert. Every caller (MCP tools, the app, other
// domain modules) posts through sendMessage so these rules hold once.
import type { Tx } from '../../store/port';
import { insertMessageRow } from '../../store/messageRows';
import { selectMessage, type MessageRow } from '../../store/messageQueries';
import type { Actor } from '../actor';
import { errors } from '../errors';
import { parseNumberedId } from '../ids';
import { resolveWritableRoom } from '../rooms/rooms';
import { routeOfPost, serializeRoute, type RoomFacts } from '../activation/untagged';
import { replyToAllOf, turnOrderOfPost } from '../activation/broadcastTurns';
import { insertBroadcastTurns, recentTurnsOf } from '../../store/broadcastTurnQueries';
import { checkMessageText, checkMessageTextSize, checkSender, isBlank } from './validation';

export interface SendMessageInput {
  roomId: string;
  author: Actor;
  text: string;
  /** `msg_N` quoted by a top-level reply (or, with threadRootId, the reply's literal target). */
  replyTo?: string | null;
  /** `msg_N` of any message of the thread to reply in. */
  threadParentId?: string | null;
  /**
   * For internal callers (the app): the thread the reply must land in. With a reply target,
   * the target's thread root must be this thread's root (M3).
   */
  threadRootId?: string | null;
  kind?: 'message' | 'status';
  /** 'auto' with blank text makes a prompt-only row, the one case blank text is allowed. */
  agentPromptKind?: 'join' | 'inline' | 'auto' | null;
  /**
   * A person's message: the room's facts for the untagged-message rule (activation/untagged.ts),
   * read in this transaction; when the message names nobody, whom it wakes is decided from them
   * and stored with it. Without them (internal posts, which name someone) today's rule applies.
   */
  roomFacts?: RoomFacts;
}

/** How far back an agent's message looks for @all turns it may end (their receipts refresh). */
const RECENT_TURN_MESSAGES = 500;

/**
 * Posts a message and returns its number. Throws M1–M6 (hard), and R3/R4 for an unknown
 * or archived room (callers decide whether those are soft or hard).
 */
export async function sendMessage(tx: Tx, input: SendMessageInput): Promise<number> {
  const promptOnly = input.agentPromptKind === 'auto' && isBlank(input.text);
  if (promptOnly) checkMessageTextSize(input.text);
  else checkMessageText(input.text);
  checkSender(input.author.label);
  const replyTo = input.replyTo ?? null;
  const threadParentId = input.threadParentId ?? null;
  if (replyTo !== null && threadParentId !== null && replyTo !== threadParentId) throw errors.M1();
  const room = await resolveWritableRoom(tx, input.roomId);

  const targetId = threadParentId ?? replyTo;
  let target = targetId === null ? null : await requireTarget(tx, input.roomId, targetId);
  let threadRoot: number | null = null;
  if (input.threadRootId != null) {
    const rootTarget = await requireTarget(tx, input.roomId, input.threadRootId);
    if (target && rootOf(target) !== rootOf(rootTarget)) throw errors.M3();
    target ??= rootTarget;
    threadRoot = rootOf(rootTarget);
  } else if (threadParentId !== null && target) {
    threadRoot = rootOf(target);
  }

  const agent = input.author.kind === 'agent' ? input.author : null;
  const routedTo = agent === null && input.roomFacts && (input.kind ?? 'message') === 'message'
    ? routeOfPost({ text: input.text, replyToNumber: target?.number ?? null, threadRootNumber: threadRoot }, input.roomFacts)
    : null;
  const number = await insertMessageRow(tx, {
    roomId: input.roomId,
    kind: input.kind ?? 'message',
    source: agent ? 'agent' : 'human',
    sender: input.author.label,
    // Stored empty, so the prompt-only test in SQL (trim(text) = '') agrees with ours.
    text: promptOnly ? '' : input.text,
    replyToNumber: target?.number ?? null,
    threadRootNumber: threadRoot,
    agentPromptKind: input.agentPromptKind ?? null,
    publisherAgentKey: agent?.agentKey ?? null,
    publisherSessionId: agent?.sessionId ?? null,
    routedTo: routedTo === null ? null : serializeRoute(routedTo),
  });
  // A person's @all answered in turn (issue 34): its order, decided once here. Agents' own
  // broadcasts keep today's rule (and the loop guard).
  if (agent === null && input.roomFacts && (input.kind ?? 'message') === 'message') {
    const order = turnOrderOfPost(number, input.text, input.roomFacts.agents, replyToAllOf(room.reply_to_all));
    if (order !== null) await insertBroadcastTurns(tx, input.roomId, number, order);
  }
  // An agent's answer may end its turn of a recent @all: that message's receipts change.
  if (agent !== null && (input.kind ?? 'message') === 'message') {
    for (const n of await recentTurnsOf(tx, input.roomId, agent.agentKey, number - RECENT_TURN_MESSAGES)) {
      tx.emit({ type: 'message.receipts', roomId: input.roomId, sessionId: agent.sessionId, first: n, last: n, turn: true });
    }
  }
  return number;
}

// A malformed id and a missing message get the same answer (M2).
async function requireTarget(tx: Tx, roomId: string, id: string): Promise<MessageRow> {
  const number = parseNumberedId('msg', id);
  const row = number === null ? undefined : await selectMessage(tx, roomId, number);
  if (!row) throw errors.M2();
  return row;
}

/** A thread reply's root is its stored root; any other message roots its own thread. */
function rootOf(message: MessageRow): number {
  return message.thread_root_number ?? message.number;
}
