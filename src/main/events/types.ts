// Every event the core publishes after a commit. The UI receives the same events
// through the bridges (src/shared/contract.ts mirrors the public ones). An event about a
// room carries the room's place ('local' or a team's name): a room id is unique only
// within its place. The storage stamps the place on what a write emits; events another
// app of a team committed arrive through its NOTIFY hints, marked `remote`.

/**
 * What routing-free watchers (the loop guard, the unanswered-message timers) need of a new
 * message, handed over with its event so they need not read it back. Absent for changes
 * another app made (a team's hint carries only the number).
 */
export interface MessageSummary {
  readonly kind: 'message' | 'status' | 'event';
  readonly source: 'agent' | 'human' | 'system';
  readonly text: string;
  readonly publisherAgentKey: string | null;
  readonly replyToNumber: number | null;
  readonly createdAt: string;
}

/** What a room event says, as a write emits it (the storage adds its place). */
export type RoomEventBody =
  | {
      type: 'message.created';
      roomId: string;
      number: number;
      message?: MessageSummary;
      /** From another app of a team: it had more calls on their way to a write when it committed this one (its burst goes on). */
      more?: boolean;
    }
  /** Messages first..last (those that route to the session) reached an agent session: receipts changed. */
  | {
      type: 'message.receipts';
      roomId: string;
      sessionId: string;
      first: number;
      last: number;
      /** A turn of the broadcast first..last moved (issue 34: an answer, a pass, a deadline): waiters look again. */
      turn?: true;
    }
  /** The token meter of the room's agents moved. */
  | { type: 'meter.changed'; roomId: string }
  | { type: 'room.changed'; roomId: string; change: 'created' | 'renamed' | 'archived' | 'unarchived' | 'deleted' | 'updated' }
  | { type: 'task.changed'; roomId: string; number: number }
  | {
      type: 'worker.changed';
      roomId: string;
      sessionId: string;
      change: 'registered' | 'updated' | 'ended' | 'renamed' | 'presence';
      /** The session's new binding epoch, when a connection took it (or a person ended it): other apps fence theirs. */
      epoch?: number;
    }
  | { type: 'needsYou.changed'; roomId: string }
  | { type: 'knowledge.changed'; roomId: string };

/** Events of this app only, never a team's. */
export type AppOwnEvent =
  | { type: 'auth.changed' }
  | { type: 'agent.changed'; agentId: string }
  | { type: 'agent.activity'; agentId: string; turn: number }
  /** An automation's settings, state or runs changed (refetch automations.list). */
  | { type: 'automation.changed'; automationId: string };

export type RoomEvent = RoomEventBody & {
  readonly place: string;
  /** Committed by another app of the team (a hint: read the database for what changed). */
  readonly remote?: boolean;
};

export type CoreEvent =
  | RoomEvent
  | AppOwnEvent
  /** A team database is online for the first time since its storage opened (a team offline at the start, or added since): read what is kept of it. */
  | { type: 'place.online'; place: string }
  /** A team database came back after its connection was lost: hints may have been missed, re-check everything of it. */
  | { type: 'place.reconnected'; place: string };

/** What a write emits: room events without their place, or this app's own events. */
export type EmittedEvent = RoomEventBody | AppOwnEvent;

/** Stamps `place` on a room event; app-own events pass unchanged. */
export function placed(event: EmittedEvent, place: string): CoreEvent {
  return 'roomId' in event ? { ...event, place } : event;
}
