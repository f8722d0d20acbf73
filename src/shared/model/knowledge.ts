// Room memory: the facts agents and people keep for a room (data-model.md §6).
import { z } from 'zod';
import { Person, RoomId, RoomNumber, Timestamp } from './common';

export const FactCategory = z.enum(['goal', 'decision', 'constraint', 'term', 'reference']);

export const Fact = z.object({
  /** "fact_<N>". */
  id: z.string(),
  number: RoomNumber,
  roomId: RoomId,
  category: FactCategory,
  title: z.string(),
  body: z.string(),
  sourceMessageNumber: RoomNumber.nullable(),
  sourceUrl: z.string().nullable(),
  createdBy: Person,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  retired: z.boolean(),
});

export const FactTitle = z.string().trim().min(1, 'Title is required.').max(160, 'Title must be at most 160 characters.');
export const FactBody = z.string().trim().min(1, 'Text is required.').max(8000, 'Text must be at most 8000 characters.');

export type FactCategory = z.infer<typeof FactCategory>;
export type Fact = z.infer<typeof Fact>;
