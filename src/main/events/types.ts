// Every event the core publishes after a commit. The UI receives the same events
// through the bridges (src/shared/contract.ts mirrors the public ones).

export type CoreEvent =
  | { type: 'message.created'; roomId: string; number: number }
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
