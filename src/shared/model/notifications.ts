// Notifications that reach the phone without a hosted service of ours (issue 37): an ntfy
// topic or a generic webhook (its URL kept in the keychain), for chosen kinds, per room
// (all / mentions / muted, or snoozed), with the message text only if the person allows it.
import { z } from 'zod';
import { Place, RoomId, Timestamp } from './common';

/** "Action needed" kinds, and the optional "turn finished". */
export const NotifyKind = z.enum(['approval', 'blocked_task', 'cant_run', 'mention', 'turn_finished']);
export const RoomNotifyLevel = z.enum(['all', 'mentions', 'muted']);
/** Snooze for an hour, eight hours, until 9:00 tomorrow (this computer's time), or stop snoozing. */
export const Snooze = z.enum(['1h', '8h', 'tomorrow', 'off']);

export const NotifyTargetKind = z.enum(['ntfy', 'webhook']);

export const NotifySettings = z.object({
  /** Where notifications go; the URL shown without its secret parts. */
  target: z.object({ kind: NotifyTargetKind, shownUrl: z.string() }).nullable(),
  kinds: z.record(NotifyKind, z.boolean()),
  /** Put the message (the command, the question, the mention) in the notification. */
  includeText: z.boolean(),
  /** Everything is quiet until then. */
  snoozedUntil: Timestamp.nullable(),
  /** Rooms set to something other than "all", or snoozed. */
  rooms: z.array(z.object({ roomId: RoomId, place: Place, level: RoomNotifyLevel, snoozedUntil: Timestamp.nullable() })),
});

export const NotifySettingsPatch = z.strictObject({
  kinds: z.partialRecord(NotifyKind, z.boolean()).optional(),
  includeText: z.boolean().optional(),
  snooze: Snooze.optional(),
});

export const NotifyTargetInput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: NotifyTargetKind,
    url: z.string().trim().min(1, 'Give the URL.').max(2_000),
    /** An ntfy access token (tk_…) for a protected topic, or a bearer token for a webhook. */
    token: z.string().trim().max(500).optional(),
  }),
  z.strictObject({ kind: z.literal('none') }),
]);

export const RoomNotifyInput = z.strictObject({
  roomId: RoomId,
  place: Place.optional(),
  level: RoomNotifyLevel.optional(),
  snooze: Snooze.optional(),
});

export const NotifyTestResult = z.object({ sent: z.boolean(), message: z.string() });

export type NotifyKind = z.infer<typeof NotifyKind>;
export type RoomNotifyLevel = z.infer<typeof RoomNotifyLevel>;
export type Snooze = z.infer<typeof Snooze>;
export type NotifySettings = z.infer<typeof NotifySettings>;
export type NotifySettingsPatch = z.infer<typeof NotifySettingsPatch>;
export type NotifyTargetInput = z.infer<typeof NotifyTargetInput>;
export type RoomNotifyInput = z.infer<typeof RoomNotifyInput>;
