// Who performs a write. Agents act through a session (worker, legacy or implicit);
// people act through the app; the app itself posts system events.

export interface AgentActor {
  readonly kind: 'agent';
  readonly label: string; // actor label: "Juniper | Ada's agent | Claude Code"
  readonly agentKey: string;
  readonly sessionId: string;
  readonly displayName: string;
}

export interface PersonActor {
  readonly kind: 'person';
  readonly label: string; // the owner label: GitHub name, login or OS user name
}

export type Actor = AgentActor | PersonActor;

export const SYSTEM_SENDER = 'LetAgents';

/** Short name used in system event text ("Juniper claimed task_7."). */
export function actorShortName(actor: Actor): string {
  return actor.kind === 'agent' ? actor.displayName : actor.label;
}
