// Running a tool body as the resolved identity, in its room's place: a fenced write, or a
// read that is checked before it starts and again after it finishes (worker-handles.md §7–8).
import type { Queryable, Tx } from '../store/port';
import { assertStillHeld, fencedWrite, resolveIdentity, type CallIdentity, type IdentityArgs } from './identity';
import type { ToolEnv } from './services';

export async function writeAs<T>(
  env: ToolEnv,
  args: IdentityArgs,
  fn: (tx: Tx, identity: CallIdentity) => Promise<T>,
  options: { posting?: boolean } = {},
): Promise<{ value: T; identity: CallIdentity }> {
  const resolved = await resolveIdentity(env, args, { write: true, posting: options.posting });
  const { value, identity } = await fencedWrite(env, resolved, fn);
  assertStillHeld(env, identity);
  return { value, identity };
}

/** A read as the resolved identity; `fn` reads through `q`. */
export async function readAs<T>(env: ToolEnv, args: IdentityArgs, fn: (identity: CallIdentity, q: Queryable) => Promise<T>): Promise<T> {
  const identity = await resolveIdentity(env, args, { write: false });
  const value = await identity.storage.read((q) => fn(identity, q));
  assertStillHeld(env, identity);
  return value;
}
