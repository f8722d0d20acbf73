// Every event the core publishes after a commit. The UI receives the same events
// through the bridges (src/shared/contract.ts mirrors the public ones).

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

export type CoreEvent =
  | { type: 'message.created'; roomId: string; number: number; message?: MessageSummary }
  /** Messages first..last (those that route to the session) reached an agent session: receipts changed. */
  | { type: 'message.receipts'; roomId: string; sessionId: string; first: number; last: number }
  /** The token meter of the room's agents moved. */
  | { type: 'meter.changed'; roomId: string }
  | { type: 'room.changed'; roomId: string; change: 'created' | 'renamed' | 'archived' | 'unarchived' | 'deleted' | 'updated' }
  | { type: 'task.changed'; roomId: string; number: number }
  | { type: 'worker.changed'; roomId: string; sessionId: string; change: 'registered' | 'updated' | 'ended' | 'renamed' | 'presence' }
  | { type: 'needsYou.changed'; roomId: string }
  | { type: 'knowledge.changed'; roomId: string }
  | { type: 'auth.changed' }
  | { type: 'agent.changed'; agentId: string }
  | { type: 'agent.activity'; agentId: string; turn: number };
