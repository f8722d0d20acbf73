// Running a tool body as the resolved identity: a fenced write, or a read that is
// checked before it starts and again after it finishes (worker-handles.md §7–8). A read
// in a room whose daily token budget is used up gets the soft D3 instead (issue 14).
import { errors } from '../domain/errors';
import type { Tx } from '../store/store';
import { assertStillHeld, fencedWrite, resolveIdentity, type CallIdentity, type IdentityArgs } from './identity';
import type { ToolEnv } from './services';

export async function writeAs<T>(
  env: ToolEnv,
  args: IdentityArgs,
  fn: (tx: Tx, identity: CallIdentity) => T,
  options: { posting?: boolean } = {},
): Promise<{ value: T; identity: CallIdentity }> {
  const resolved = await resolveIdentity(env, args, { write: true, posting: options.posting });
  const { value, identity } = await fencedWrite(env, resolved, fn);
  assertStillHeld(env, identity);
  return { value, identity };
}

export async function readAs<T>(env: ToolEnv, args: IdentityArgs, fn: (identity: CallIdentity) => T | Promise<T>): Promise<T> {
  const identity = await resolveIdentity(env, args, { write: false });
  assertWithinBudget(env, identity.roomId);
  const value = await fn(identity);
  assertStillHeld(env, identity);
  return value;
}

/** D3 (soft) when the room's agents received their daily token budget's worth today. */
export function assertWithinBudget(env: ToolEnv, roomId: string): void {
  const budget = env.services.delivery.meter.budget(roomId);
  if (budget.reached) throw errors.D3(budget.usedTokens, budget.budgetTokens!);
}
