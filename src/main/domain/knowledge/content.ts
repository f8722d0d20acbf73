// What facts and human requests share (data-model.md §8 "Knowledge"): input bounds,
// categories, the source message check (M2) and client_id idempotency (K1).
import type { Queryable } from '../../store/port';
import type { KnowledgeContent, KnowledgeRow } from '../../store/knowledgeQueries';
import { selectMessage } from '../../store/messageQueries';
import { appErrors, errors } from '../errors';
import { msgId, parseNumberedId } from '../ids';

export const KNOWLEDGE_LIMITS = {
  clientIdMin: 8,
  clientIdMax: 80,
  titleMax: 160,
  bodyMax: 8000,
  sourceUrlMax: 2048,
  recommendationMax: 2000,
  unblocksMax: 1000,
} as const;

/** Lengths count characters (code points), so an emoji counts once, as a person reads it. */
function charCount(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

export function checkClientId(clientId: unknown): string {
  if (typeof clientId !== 'string' || charCount(clientId) < KNOWLEDGE_LIMITS.clientIdMin || charCount(clientId) > KNOWLEDGE_LIMITS.clientIdMax) {
    throw appErrors.invalidInput(`client_id must be ${KNOWLEDGE_LIMITS.clientIdMin}–${KNOWLEDGE_LIMITS.clientIdMax} characters.`);
  }
  return clientId;
}

/** Titles are one line, so surrounding whitespace is dropped before the bound is checked. */
function checkTitle(title: unknown): string {
  const trimmed = typeof title === 'string' ? title.trim() : '';
  if (trimmed === '' || charCount(trimmed) > KNOWLEDGE_LIMITS.titleMax) {
    throw appErrors.invalidInput(`title must be 1–${KNOWLEDGE_LIMITS.titleMax} characters.`);
  }
  return trimmed;
}

/** Bodies keep their whitespace (Markdown indentation matters) but must not be blank. */
function checkBody(body: unknown): string {
  if (typeof body !== 'string' || body.trim() === '' || charCount(body) > KNOWLEDGE_LIMITS.bodyMax) {
    throw appErrors.invalidInput(`body must be 1–${KNOWLEDGE_LIMITS.bodyMax} characters.`);
  }
  return body;
}

function checkCategory<C extends string>(category: unknown, allowed: readonly C[]): C {
  if (typeof category !== 'string' || !(allowed as readonly string[]).includes(category)) {
    throw appErrors.invalidInput(`category must be one of ${allowed.join(', ')}.`);
  }
  return category as C;
}

/** An optional text field: absent or blank becomes null; longer than `max` is refused. */
export function checkOptionalText(name: string, value: unknown, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw appErrors.invalidInput(`${name} must be text.`);
  if (value.trim() === '') return null;
  if (charCount(value) > max) throw appErrors.invalidInput(`${name} must be at most ${max} characters.`);
  return value;
}

/** `source_message_id` must name a message of this room (M2, like reply_to). */
async function checkSourceMessage(q: Queryable, roomId: string, sourceMessageId: unknown): Promise<number | null> {
  if (sourceMessageId === undefined || sourceMessageId === null) return null;
  const number = parseNumberedId('msg', sourceMessageId);
  if (number === null || (await selectMessage(q, roomId, number)) === undefined) throw errors.M2();
  return number;
}

/** The content a fact or request is sent with, before it is checked. */
export interface KnowledgeInput {
  title: string;
  body: string;
  category: string;
  sourceMessageId?: string | null;
  sourceUrl?: string | null;
}

/** Checks the shared content in field order; `categories` are those of the entry's kind. */
export async function checkKnowledgeContent<C extends string>(
  q: Queryable,
  roomId: string,
  input: KnowledgeInput,
  categories: readonly C[],
): Promise<KnowledgeContent<C>> {
  return {
    category: checkCategory(input.category, categories),
    title: checkTitle(input.title),
    body: checkBody(input.body),
    sourceMessageNumber: await checkSourceMessage(q, roomId, input.sourceMessageId),
    sourceUrl: checkOptionalText('source_url', input.sourceUrl, KNOWLEDGE_LIMITS.sourceUrlMax),
  };
}

/** True when a stored fact or request already holds exactly this shared content. */
export function holdsContent(row: KnowledgeRow<string>, content: KnowledgeContent<string>): boolean {
  return (
    row.category === content.category &&
    row.title === content.title &&
    row.body === content.body &&
    row.source_message_number === content.sourceMessageNumber &&
    row.source_url === content.sourceUrl
  );
}

/**
 * client_id idempotency: the entry already stored under the client_id when `same` says it
 * holds what was sent again, undefined for a new client_id; other content is refused (K1).
 */
export function repeatOf<R>(stored: R | undefined, same: (row: R) => boolean): R | undefined {
  if (stored !== undefined && !same(stored)) throw errors.K1();
  return stored;
}

/** The msg_N an entry comes from, as agents and people read it. */
export function sourceMessageIdOf(row: KnowledgeRow<string>): string | null {
  return row.source_message_number === null ? null : msgId(row.source_message_number);
}
