// Which room and agent session a tool call acts for, as the call resolves them (identity.ts,
// wait_for_messages' routing identity), so the token meter can charge the result to them
// without every tool passing them back. Each call runs with its own ToolEnv carrying its
// scope (callEnv); AsyncLocalStorage would do the same but slows every promise in the process.
// A call that may write is placed in its room among the incoming writes the same way.
import type { IncomingWrite } from '../events/incomingWrites';
import type { CallScope, ToolEnv } from './services';

/** The env one call runs with: the connection's, plus a fresh scope (with the call's place among the incoming writes, if it may write). */
export function callEnv(env: ToolEnv, incoming: IncomingWrite | null = null): ToolEnv & { readonly scope: CallScope } {
  return { services: env.services, conn: env.conn, ready: env.ready, scope: { place: null, roomId: null, sessionId: null, incoming } };
}

/** Notes the call's room and, once known, its session (the latest resolution wins). */
export function noteCallIdentity(env: ToolEnv, room: { readonly place: string; readonly roomId: string }, sessionId: string | null): void {
  const scope = env.scope;
  if (!scope) return;
  scope.place = room.place;
  scope.roomId = room.roomId;
  if (sessionId !== null) scope.sessionId = sessionId;
  scope.incoming?.at(room.place, room.roomId);
}
