// Human requests (data-model.md §6, mcp-tools.md §7): agents ask people for input (req_N),
// idempotently by client_id; only people answer or dismiss. An answer is also posted as the
// person's thread reply that @mentions the requester, which wakes it.
import type { Queryable, Tx } from '../../store/port';
import { allocateNumber } from '../../store/rooms';
import {
  type RequestCategory,
  type RequestContent,
  type RequestRow,
  type RequestStatus,
  getRequestByClientId,
  getRequestRow,
  insertRequestRow,
  listRequestRows,
  markRequestAnswered,
  markRequestDismissed,
} from '../../store/knowledgeQueries';
import { type Actor, type PersonActor, actorShortName } from '../actor';
import { appErrors } from '../errors';
import { resolveWritableRoom } from '../rooms/rooms';
import { formatId, msgId } from '../ids';
import { postSystemEvent } from '../systemEvents';
import { mentionOf } from '../messages/mentions';
import { sendMessage } from '../messages/send';
import {
  KNOWLEDGE_LIMITS,
  type KnowledgeInput,
  checkClientId,
  checkKnowledgeContent,
  checkOptionalText,
  holdsContent,
  repeatOf,
  sourceMessageIdOf,
} from './content';

export type { RequestCategory, RequestStatus } from '../../store/knowledgeQueries';
export const REQUEST_CATEGORIES: readonly RequestCategory[] = ['question', 'decision', 'approval', 'review'];

/** Most requests one get_human_requests call returns (the newest). */
export const REQUESTS_LIMIT = 500;

/** A request exactly as get_human_requests and request_human_input return it. */
export interface HumanRequest {
  id: string;
  category: RequestCategory;
  title: string;
  body: string;
  recommendation: string | null;
  unblocks: string | null;
  source_message_id: string | null;
  source_url: string | null;
  status: RequestStatus;
  requested_by: string;
  created_at: string;
  answer: { text: string; answered_by: string; answered_at: string } | null;
}

export interface RequestInput extends KnowledgeInput {
  clientId: string;
  recommendation?: string | null;
  unblocks?: string | null;
}

/** request_human_input: creates req_N (open) and its system event, or returns the same entry for a repeated client_id. */
export async function requestHumanInput(tx: Tx, roomId: string, actor: Actor, input: RequestInput): Promise<{ request: HumanRequest; created: boolean }> {
  await resolveWritableRoom(tx, roomId);
  const clientId = checkClientId(input.clientId);
  const content = await checkRequestContent(tx, roomId, input);
  const repeat = repeatOf(await getRequestByClientId(tx, roomId, clientId), (row) => sameContent(row, content));
  if (repeat) return { request: toHumanRequest(repeat), created: false };
  const number = await allocateNumber(tx, roomId, 'next_request_number');
  const name = actorShortName(actor);
  const eventNumber = await postSystemEvent(tx, roomId, `${name} asked for input (${formatId('req', number)}): ${content.title}`, actor);
  await insertRequestRow(tx, {
    ...content,
    roomId,
    number,
    clientId,
    eventMessageNumber: eventNumber,
    requestedBy: actor.label,
    requestedByAgentKey: actor.kind === 'agent' ? actor.agentKey : null,
    requestedByName: name,
  });
  tx.emit({ type: 'needsYou.changed', roomId });
  return { request: toHumanRequest(await requireRequest(tx, roomId, number)), created: true };
}

/** get_human_requests: the room's requests, newest first. */
export async function getHumanRequests(q: Queryable, roomId: string): Promise<HumanRequest[]> {
  return (await listRequestRows(q, roomId, REQUESTS_LIMIT)).map(toHumanRequest);
}

/**
 * A person answers an open request. The answer is stored and posted as the person's thread
 * reply "@<requester> <text>" under the request's source message, else under its creation event.
 */
export async function answerRequest(tx: Tx, person: PersonActor, roomId: string, number: number, text: string): Promise<HumanRequest> {
  const row = await requireOpenRequest(tx, person, roomId, number, 'answered');
  const answer = typeof text === 'string' ? text.trim() : '';
  if (answer === '') throw appErrors.invalidInput('Answer text is required.');
  await markRequestAnswered(tx, roomId, number, answer, person.label);
  const parent = row.source_message_number ?? row.event_message_number;
  await sendMessage(tx, {
    roomId,
    author: person,
    text: `${mentionOf(requesterName(row))} ${answer}`,
    ...(parent !== null ? { threadParentId: msgId(parent) } : {}),
  });
  tx.emit({ type: 'needsYou.changed', roomId });
  return toHumanRequest(await requireRequest(tx, roomId, number));
}

/** A person dismisses an open request; it leaves "Needs you" unanswered. */
export async function dismissRequest(tx: Tx, person: PersonActor, roomId: string, number: number): Promise<HumanRequest> {
  await requireOpenRequest(tx, person, roomId, number, 'dismissed');
  await markRequestDismissed(tx, roomId, number);
  tx.emit({ type: 'needsYou.changed', roomId });
  return toHumanRequest(await requireRequest(tx, roomId, number));
}

// Only people change a request's status, and only while it is open.
async function requireOpenRequest(tx: Tx, person: PersonActor, roomId: string, number: number, verb: 'answered' | 'dismissed'): Promise<RequestRow> {
  if (person.kind !== 'person') throw appErrors.invalidInput('Only people can answer or dismiss requests.');
  await resolveWritableRoom(tx, roomId);
  const row = await requireRequest(tx, roomId, number);
  if (row.status === 'answered' && verb === 'answered') throw appErrors.alreadyAnswered(formatId('req', number), row.answered_by ?? '');
  if (row.status !== 'open') {
    throw appErrors.invalidInput(`${formatId('req', number)} is already ${row.status}; only open requests can be ${verb}.`);
  }
  return row;
}

async function requireRequest(q: Queryable, roomId: string, number: number): Promise<RequestRow> {
  const row = await getRequestRow(q, roomId, number);
  if (!row) throw appErrors.notFound('Request');
  return row;
}

// The name as the requester was called when it asked (a later rename does not matter).
function requesterName(row: RequestRow): string {
  return row.requested_by_name ?? row.requested_by.split(' | ')[0];
}

// The agent's own fields are checked after the shared ones; over MCP the tool's schema
// refuses a bad recommendation or unblocks before this runs.
async function checkRequestContent(q: Queryable, roomId: string, input: RequestInput): Promise<RequestContent> {
  return {
    ...await checkKnowledgeContent(q, roomId, input, REQUEST_CATEGORIES),
    recommendation: checkOptionalText('recommendation', input.recommendation, KNOWLEDGE_LIMITS.recommendationMax),
    unblocks: checkOptionalText('unblocks', input.unblocks, KNOWLEDGE_LIMITS.unblocksMax),
  };
}

function sameContent(row: RequestRow, content: RequestContent): boolean {
  return holdsContent(row, content) && row.recommendation === content.recommendation && row.unblocks === content.unblocks;
}

function toHumanRequest(row: RequestRow): HumanRequest {
  return {
    id: formatId('req', row.number),
    category: row.category,
    title: row.title,
    body: row.body,
    recommendation: row.recommendation,
    unblocks: row.unblocks,
    source_message_id: sourceMessageIdOf(row),
    source_url: row.source_url,
    status: row.status,
    requested_by: row.requested_by,
    created_at: row.created_at,
    answer:
      row.status === 'answered' && row.answer_text !== null
        ? { text: row.answer_text, answered_by: row.answered_by ?? '', answered_at: row.answered_at ?? '' }
        : null,
  };
}
