// Running a tool body as the resolved identity: a fenced write, or a read that is
// checked before it starts and again after it finishes (worker-handles.md §7–8).
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
  const value = await fn(identity);
  assertStillHeld(env, identity);
  return value;
}
