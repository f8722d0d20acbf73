// Which room and agent session a tool call acts for, as the call resolves them (identity.ts,
// wait_for_messages' routing identity), so the token meter can charge the result to them
// without every tool passing them back. One scope per call, through AsyncLocalStorage.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface CallScope {
  roomId: string | null;
  sessionId: string | null;
}

const storage = new AsyncLocalStorage<CallScope>();

/** Runs one tool call in a fresh scope; returns what `fn` returns and the scope it filled. */
export async function inCallScope<T>(fn: () => Promise<T>): Promise<{ value: T; scope: CallScope }> {
  const scope: CallScope = { roomId: null, sessionId: null };
  const value = await storage.run(scope, fn);
  return { value, scope };
}

/** Notes the call's room and, once known, its session (the latest resolution wins). */
export function noteCallIdentity(roomId: string, sessionId: string | null): void {
  const scope = storage.getStore();
  if (!scope) return;
  scope.roomId = roomId;
  if (sessionId !== null) scope.sessionId = sessionId;
}
