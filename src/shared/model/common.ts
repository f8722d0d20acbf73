// Building blocks shared by the contract's schemas: ids, numbers, timestamps, agent names.
import { z } from 'zod';

/** A room id: 1–512 characters, no control characters (data-model.md §2). */
export const RoomId = z
  .string()
  .min(1, 'Room id must be 1–512 characters with no control characters.')
  .max(512, 'Room id must be 1–512 characters with no control characters.')
  .refine((value) => !/\p{Cc}/u.test(value), 'Room id must be 1–512 characters with no control characters.');

/**
 * Where a room lives: 'local' (this computer) or a team's name. A room id is unique only
 * within its place, so whatever names a team's room carries its place too; omitted: 'local'.
 */
export const Place = z.string().trim().min(1, 'A place is "local" or a team\'s name.').max(40, 'A place is "local" or a team\'s name.');

/** A per-room number (message, task, fact, request): 1 … 2 147 483 647. */
export const RoomNumber = z.number().int().min(1).max(2_147_483_647);

/** ISO-8601 UTC with milliseconds. */
export const Timestamp = z.string();

/** Who wrote or holds something, as people see it (parsed from the actor label). */
export const Person = z.object({
  /** The full actor label, e.g. "Juniper | Ada's agent | Claude Code". */
  label: z.string(),
  /** Display name, e.g. "Juniper". */
  name: z.string(),
  /** Owner attribution, e.g. "Ada's agent"; null for people and the system. */
  owner: z.string().nullable(),
  /** IDE label, e.g. "Claude Code"; null for people and the system. */
  ide: z.string().nullable(),
  /** Public agent key when an agent; null otherwise. */
  agentKey: z.string().nullable(),
});
export type Person = z.infer<typeof Person>;

export const Empty = z.strictObject({});
