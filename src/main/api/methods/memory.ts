// memory.*: the room's facts as people manage them — list (retired ones on request), add,
// edit and retire (retired facts are hidden from agents).
import type { Fact } from '../../../shared/model/knowledge';
import { parseNumberedId } from '../../domain/ids';
import { addFactAsPerson, editFact, listRoomFacts, retireFact, type RoomFact } from '../../domain/knowledge/facts';
import { requireRoom } from '../../domain/rooms/rooms';
import type { ApiContext } from '../context';
import { personOf } from '../models/people';
import type { Methods } from './types';

type MemoryMethods = Methods<'memory.list' | 'memory.add' | 'memory.edit' | 'memory.retire'>;

export function toFact(roomId: string, fact: RoomFact): Fact {
  return {
    id: fact.id,
    number: parseNumberedId('fact', fact.id)!,
    roomId,
    category: fact.category,
    title: fact.title,
    body: fact.body,
    sourceMessageNumber: fact.source_message_id === null ? null : parseNumberedId('msg', fact.source_message_id),
    sourceUrl: fact.source_url,
    createdBy: personOf(fact.created_by),
    createdAt: fact.created_at,
    updatedAt: fact.updated_at,
    retired: fact.retired_at !== null,
  };
}

export function memoryMethods(ctx: ApiContext): MemoryMethods {
  return {
    'memory.list': async ({ roomId, place, includeRetired }) => {
      // The domain lists the newest facts in number order; the panel shows the newest first.
      const facts = await ctx.read(async (q) => {
        await requireRoom(q, roomId);
        return listRoomFacts(q, roomId);
      }, place);
      return facts
        .filter((fact) => includeRetired || fact.retired_at === null)
        .reverse()
        .map((fact) => toFact(roomId, fact));
    },

    'memory.add': async ({ roomId, place, category, title, body, sourceUrl }) => {
      const person = await ctx.person(place);
      return toFact(roomId, await ctx.write((tx) => addFactAsPerson(tx, person, roomId, { category, title, body, sourceUrl: sourceUrl ?? null }), place));
    },

    'memory.edit': async ({ roomId, place, number, category, title, body }) => {
      const person = await ctx.person(place);
      return toFact(roomId, await ctx.write((tx) => editFact(tx, person, roomId, number, { category, title, body }), place));
    },

    'memory.retire': async ({ roomId, place, number }) => {
      const person = await ctx.person(place);
      return toFact(roomId, await ctx.write((tx) => retireFact(tx, person, roomId, number), place));
    },
  };
}
