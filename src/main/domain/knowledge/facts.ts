// Room memory (data-model.md §6, mcp-tools.md §7): agents remember facts idempotently by
// client_id; people add, edit, retire and restore them; agents never see retired facts.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../store/database';
import type { Tx } from '../../store/store';
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
export function rememberFact(tx: Tx, roomId: string, actor: Actor, input: RememberFactInput): { fact: Fact; created: boolean } {
  resolveWritableRoom(tx.db, roomId);
  const clientId = checkClientId(input.clientId);
  const content = checkFactContent(tx.db, roomId, input);
  const repeat = repeatOf(getFactByClientId(tx.db, roomId, clientId), (row) => holdsContent(row, content));
  if (repeat) return { fact: toFact(repeat), created: false };
  return { fact: toFact(createFact(tx, roomId, clientId, actor.label, content)), created: true };
}

/** A person adds a fact from the app; it gets its own client_id so it never clashes with an agent's. */
export function addFactAsPerson(tx: Tx, person: PersonActor, roomId: string, input: FactInput): RoomFact {
  assertPerson(person);
  resolveWritableRoom(tx.db, roomId);
  const content = checkFactContent(tx.db, roomId, input);
  return toRoomFact(createFact(tx, roomId, `person_${randomUUID()}`, person.label, content));
}

/** A person edits a fact; fields left out keep their value. */
export function editFact(tx: Tx, person: PersonActor, roomId: string, number: number, patch: Partial<FactInput>): RoomFact {
  assertPerson(person);
  resolveWritableRoom(tx.db, roomId);
  const row = requireFact(tx.db, roomId, number);
  const content = checkFactContent(tx.db, roomId, {
    title: patch.title ?? row.title,
    body: patch.body ?? row.body,
    category: patch.category ?? row.category,
    sourceMessageId: patch.sourceMessageId !== undefined ? patch.sourceMessageId : sourceMessageIdOf(row),
    sourceUrl: patch.sourceUrl !== undefined ? patch.sourceUrl : row.source_url,
  });
  if (!holdsContent(row, content)) {
    updateFactContent(tx, roomId, number, content);
    tx.emit({ type: 'knowledge.changed', roomId });
  }
  return toRoomFact(requireFact(tx.db, roomId, number));
}

/** A person retires a fact: it stays for people but agents no longer see it. Retiring twice changes nothing. */
export function retireFact(tx: Tx, person: PersonActor, roomId: string, number: number): RoomFact {
  return setRetired(tx, person, roomId, number, true);
}

/** A person brings a retired fact back into the room's memory. */
export function restoreFact(tx: Tx, person: PersonActor, roomId: string, number: number): RoomFact {
  return setRetired(tx, person, roomId, number, false);
}

/** get_room_memory: the room's facts that are not retired, grouped by category, in number order. */
export function getRoomMemory(db: Db, roomId: string): RoomMemory {
  const memory: RoomMemory = { goals: [], decisions: [], constraints: [], terms: [], references: [] };
  for (const row of listFactRows(db, roomId, { includeRetired: false, limit: MEMORY_LIMIT })) {
    memory[`${row.category}s` as keyof RoomMemory].push(toMemoryEntry(row));
  }
  return memory;
}

/** The app's memory panel: the newest facts (retired ones included), in number order. */
export function listRoomFacts(db: Db, roomId: string): RoomFact[] {
  return listFactRows(db, roomId, { includeRetired: true, limit: MEMORY_LIMIT }).map(toRoomFact);
}

function createFact(tx: Tx, roomId: string, clientId: string, createdBy: string, content: FactContent): FactRow {
  const number = allocateNumber(tx, roomId, 'next_fact_number');
  insertFactRow(tx, { ...content, roomId, number, clientId, createdBy });
  tx.emit({ type: 'knowledge.changed', roomId });
  return requireFact(tx.db, roomId, number);
}

function setRetired(tx: Tx, person: PersonActor, roomId: string, number: number, retired: boolean): RoomFact {
  assertPerson(person);
  resolveWritableRoom(tx.db, roomId);
  const row = requireFact(tx.db, roomId, number);
  if ((row.retired_at !== null) !== retired) {
    setFactRetired(tx, roomId, number, retired ? tx.now : null);
    tx.emit({ type: 'knowledge.changed', roomId });
  }
  return toRoomFact(requireFact(tx.db, roomId, number));
}

function checkFactContent(db: Db, roomId: string, input: FactInput): FactContent {
  return checkKnowledgeContent(db, roomId, input, FACT_CATEGORIES);
}

function requireFact(db: Db, roomId: string, number: number): FactRow {
  const row = getFactRow(db, roomId, number);
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
