// Every event the core pushes to the UI, as zod schemas. Events carry what the UI needs
// to update in place (a new message, a changed card) or just what to refetch.
import { z } from 'zod';
import { Place, RoomId } from './model/common';
import { TimelineMessage } from './model/messages';
import { TaskCard } from './model/tasks';
import { OpenRoute } from './model/openRoute';
import { Meter, Reachability, Wake } from './model/workers';
import { TeamConnection } from './model/teams';

// Every room event names its room by id and place ('local' or a team's name): the same id
// may be another room in another place. A team's events also come from the team's other
// apps (their commits), so a window shows what happens on every machine.
export const AppEvent = z.discriminatedUnion('type', [
  /** A people-visible message committed (prompt-only rows are never pushed). */
  z.object({ type: z.literal('message.created'), roomId: RoomId, place: Place, message: TimelineMessage }),
  z.object({ type: z.literal('task.changed'), roomId: RoomId, place: Place, task: TaskCard }),
  z.object({
    type: z.literal('worker.changed'),
    roomId: RoomId,
    place: Place,
    sessionId: z.string(),
    change: z.enum(['registered', 'updated', 'ended', 'renamed', 'presence']),
  }),
  /** Whether a mention would reach the agent changed (not a write). */
  z.object({ type: z.literal('worker.reachability'), roomId: RoomId, place: Place, sessionId: z.string(), reachability: Reachability }),
  /** Messages first..last reached an agent session: their receipts changed (refetch those shown). */
  z.object({ type: z.literal('message.receipts'), roomId: RoomId, place: Place, sessionId: z.string(), first: z.number().int(), last: z.number().int() }),
  /** The room's token meter moved: the room's and each session's counts now. */
  z.object({ type: z.literal('meter.changed'), roomId: RoomId, place: Place, room: Meter, sessions: z.array(z.object({ sessionId: z.string(), meter: Meter })) }),
  /** wait_for_messages woke an agent: why (not a write; nothing to refetch). */
  z.object({ type: z.literal('worker.woken'), roomId: RoomId, place: Place, sessionId: z.string(), wake: Wake }),
  z.object({ type: z.literal('needsYou.changed'), roomId: RoomId, place: Place }),
  z.object({
    type: z.literal('room.changed'),
    roomId: RoomId,
    place: Place,
    change: z.enum(['created', 'renamed', 'archived', 'unarchived', 'deleted', 'updated', 'read']),
  }),
  z.object({ type: z.literal('knowledge.changed'), roomId: RoomId, place: Place }),
  /** A managed agent's settings, state or turn changed (refetch agents.list). */
  z.object({ type: z.literal('agent.changed'), agentId: z.string() }),
  /** A managed agent's turn logged something (refetch agents.activity). */
  z.object({ type: z.literal('agent.activity'), agentId: z.string(), turn: z.number().int() }),
  /** An automation's settings, state or runs changed (refetch automations.list). */
  z.object({ type: z.literal('automation.changed'), automationId: z.string() }),
  z.object({ type: z.literal('auth.changed') }),
  /** A team's lost connection came back: what its other apps committed meanwhile may be missing from views of its rooms (refetch them). */
  z.object({ type: z.literal('place.reconnected'), place: Place }),
  /** Teams were added, removed or changed, or a team's connection state changed (each opened team's state). */
  z.object({ type: z.literal('teams.changed'), connections: z.array(z.object({ name: z.string(), connection: TeamConnection })) }),
  /** The phone listener or the paired phones changed (refetch phone.status). */
  z.object({ type: z.literal('phone.changed') }),
  /** The desktop shell asks the window to show something (a notification or tray click). */
  z.object({ type: z.literal('app.open'), route: OpenRoute }),
]);

export type AppEvent = z.infer<typeof AppEvent>;
export type AppEventType = AppEvent['type'];
export type AppEventOf<T extends AppEventType> = Extract<AppEvent, { type: T }>;
