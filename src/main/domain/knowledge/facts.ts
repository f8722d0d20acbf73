// Room memory (data-model.md §6, mcp-tools.md §7): agents remember facts idempotently by
// client_id; people add, edit, retire and restore them; agents never see retired facts.
import { randomUUID } from 'node:crypto';
import type { Queryable, Tx } from '../../store/port';
import { allocateNumber } from '../../store/rooms';
import {
  type FactCategory,
  type FactContent,
  type FactRow,
  getFactByClientId,
  getFactRow,
  insertFactRow,
  listFactRows,
  setFactRetired,
  updateFactContent,
} from '../../store/knowledgeQueries';
import type { Actor, PersonActor } from '../actor';
import { appErrors } from '../errors';
import { resolveWritableRoom } from '../rooms/rooms';
import { formatId } from '../ids';
import { type KnowledgeInput, checkClientId, checkKnowledgeContent, holdsContent, repeatOf, sourceMessageIdOf } from './content';

export type { FactCategory } from '../../store/knowledgeQueries';
export const FACT_CATEGORIES: readonly FactCategory[] = ['goal', 'decision', 'constraint', 'term', 'reference'];

/** Most facts one memory read returns (the newest ones), keeping every read bounded. */
export const MEMORY_LIMIT = 500;

/** A fact as agents read it in get_room_memory. */
export interface MemoryEntry {
  id: string;
  title: string;
  body: string;
  source_message_id: string | null;
  source_url: string | null;
  created_by: string;
  created_at: string;
}

/** A fact as remember_room_fact returns it. */
export interface Fact extends MemoryEntry {
  category: FactCategory;
}

/** A fact as people manage it in the app, retired ones included. */
export interface RoomFact extends Fact {
  updated_at: string;
  retired_at: string | null;
}

export interface RoomMemory {
  goals: MemoryEntry[];
  decisions: MemoryEntry[];
  constraints: MemoryEntry[];
  terms: MemoryEntry[];
  references: MemoryEntry[];
}

export type FactInput = KnowledgeInput;

export interface RememberFactInput extends FactInput {
  clientId: string;
}

/** remember_room_fact: creates fact_N, or returns the same entry again for a repeated client_id. */
export async function rememberFact(tx: Tx, roomId: string, actor: Actor, input: RememberFactInput): Promise<{ fact: Fact; created: boolean }> {
  await resolveWritableRoom(tx, roomId);
  const clientId = checkClientId(input.clientId);
  const content = await checkFactContent(tx, roomId, input);
  const repeat = repeatOf(await getFactByClientId(tx, roomId, clientId), (row) => holdsContent(row, content));
  if (repeat) return { fact: toFact(repeat), created: false };
  return { fact: toFact(await createFact(tx, roomId, clientId, actor.label, content)), created: true };
}

/** A person adds a fact from the app; it gets its own client_id so it never clashes with an agent's. */
export async function addFactAsPerson(tx: Tx, person: PersonActor, roomId: string, input: FactInput): Promise<RoomFact> {
  assertPerson(person);
  await resolveWritableRoom(tx, roomId);
  const content = await checkFactContent(tx, roomId, input);
  return toRoomFact(await createFact(tx, roomId, `person_${randomUUID()}`, person.label, content));
}

/** A person edits a fact; fields left out keep their value. */
export async function editFact(tx: Tx, person: PersonActor, roomId: string, number: number, patch: Partial<FactInput>): Promise<RoomFact> {
  assertPerson(person);
  await resolveWritableRoom(tx, roomId);
  const row = await requireFact(tx, roomId, number);
  const content = await checkFactContent(tx, roomId, {
    title: patch.title ?? row.title,
    body: patch.body ?? row.body,
    category: patch.category ?? row.category,
    sourceMessageId: patch.sourceMessageId !== undefined ? patch.sourceMessageId : sourceMessageIdOf(row),
    sourceUrl: patch.sourceUrl !== undefined ? patch.sourceUrl : row.source_url,
  });
  if (!holdsContent(row, content)) {
    await updateFactContent(tx, roomId, number, content);
    tx.emit({ type: 'knowledge.changed', roomId });
  }
  return toRoomFact(await requireFact(tx, roomId, number));
}

/** A person retires a fact: it stays for people but agents no longer see it. Retiring twice changes nothing. */
export function retireFact(tx: Tx, person: PersonActor, roomId: string, number: number): Promise<RoomFact> {
  return setRetired(tx, person, roomId, number, true);
}

/** A person brings a retired fact back into the room's memory. */
export function restoreFact(tx: Tx, person: PersonActor, roomId: string, number: number): Promise<RoomFact> {
  return setRetired(tx, person, roomId, number, false);
}

/** get_room_memory: the room's facts that are not retired, grouped by category, in number order. */
export async function getRoomMemory(q: Queryable, roomId: string): Promise<RoomMemory> {
  const memory: RoomMemory = { goals: [], decisions: [], constraints: [], terms: [], references: [] };
  for (const row of await listFactRows(q, roomId, { includeRetired: false, limit: MEMORY_LIMIT })) {
    memory[`${row.category}s` as keyof RoomMemory].push(toMemoryEntry(row));
  }
  return memory;
}

/** The app's memory panel: the newest facts (retired ones included), in number order. */
export async function listRoomFacts(q: Queryable, roomId: string): Promise<RoomFact[]> {
  return (await listFactRows(q, roomId, { includeRetired: true, limit: MEMORY_LIMIT })).map(toRoomFact);
}

async function createFact(tx: Tx, roomId: string, clientId: string, createdBy: string, content: FactContent): Promise<FactRow> {
  const number = await allocateNumber(tx, roomId, 'next_fact_number');
  await insertFactRow(tx, { ...content, roomId, number, clientId, createdBy });
  tx.emit({ type: 'knowledge.changed', roomId });
  return requireFact(tx, roomId, number);
}

async function setRetired(tx: Tx, person: PersonActor, roomId: string, number: number, retired: boolean): Promise<RoomFact> {
  assertPerson(person);
  await resolveWritableRoom(tx, roomId);
  const row = await requireFact(tx, roomId, number);
  if ((row.retired_at !== null) !== retired) {
    await setFactRetired(tx, roomId, number, retired ? tx.now : null);
    tx.emit({ type: 'knowledge.changed', roomId });
  }
  return toRoomFact(await requireFact(tx, roomId, number));
}

function checkFactContent(q: Queryable, roomId: string, input: FactInput): Promise<FactContent> {
  return checkKnowledgeContent(q, roomId, input, FACT_CATEGORIES);
}

async function requireFact(q: Queryable, roomId: string, number: number): Promise<FactRow> {
  const row = await getFactRow(q, roomId, number);
  if (!row) throw appErrors.notFound('Fact');
  return row;
}

// Person actions are typed for people, but adapters hand us runtime values: check anyway.
function assertPerson(actor: Actor): void {
  if (actor.kind !== 'person') throw appErrors.invalidInput('Only people can change facts this way.');
}

function toMemoryEntry(row: FactRow): MemoryEntry {
  return {
    id: formatId('fact', row.number),
    title: row.title,
    body: row.body,
    source_message_id: sourceMessageIdOf(row),
    source_url: row.source_url,
    created_by: row.created_by,
    created_at: row.created_at,
  };
}

function toFact(row: FactRow): Fact {
  return { ...toMemoryEntry(row), category: row.category };
}

function toRoomFact(row: FactRow): RoomFact {
  return { ...toFact(row), updated_at: row.updated_at, retired_at: row.retired_at };
}
