// Workers (worker-handles.md §2–3): the durable identity of one chat, found or created
// from the hash of its registration key. The raw key is never stored.
import type { Queryable, Tx } from '../../store/port';
import { copyWorkerRow, findWorkerByKeyHash, getWorkerRow, insertWorkerRow, listWorkerRoomIds, type WorkerRow } from '../../store/sessionQueries';
import { checkRegistrationKey, hashRegistrationKey, isWorkerIdShape, newWorkerId, workerAgentKey } from '../identity/agentKeys';
import { codename } from '../identity/codenames';
import { runtimeSlug } from '../identity/labels';
import { cleanDisplayName } from '../identity/names';

export type { WorkerRow } from '../../store/sessionQueries';

export interface NewWorker {
  registrationKey: string;
  /** The display name the chat asked for; cleaned, and replaced by a codename when unusable. */
  requestedName?: string | null;
  ownerLabel: string;
  ownerSlug: string;
  ideLabel: string;
  /** Defaults to the slug of the IDE label. */
  runtime?: string | null;
}

/**
 * Finds the worker registered with this key, or creates it (one transaction, so a
 * retried first registration is idempotent). Labels are fixed at creation.
 */
export async function findOrCreateWorker(tx: Tx, input: NewWorker): Promise<{ worker: WorkerRow; created: boolean }> {
  const keyHash = hashRegistrationKey(checkRegistrationKey(input.registrationKey));
  const existing = await findWorkerByKeyHash(tx, keyHash);
  if (existing) return { worker: existing, created: false };

  const workerId = newWorkerId();
  const worker: WorkerRow = {
    worker_id: workerId,
    registration_key_hash: keyHash,
    display_name: cleanDisplayName(input.requestedName) ?? codename(workerId).displayName,
    agent_key: workerAgentKey(input.ownerSlug, workerId),
    owner_label: input.ownerLabel,
    ide_label: input.ideLabel,
    runtime: input.runtime?.trim() || runtimeSlug(input.ideLabel),
    created_at: tx.now,
  };
  await insertWorkerRow(tx, worker);
  return { worker, created: true };
}

/** The worker with this id; undefined for an unknown or malformed id (the caller reports W7). */
export async function getWorker(q: Queryable, workerId: string): Promise<WorkerRow | undefined> {
  return isWorkerIdShape(workerId) ? await getWorkerRow(q, workerId) : undefined;
}

/** A worker's rooms: every room where it has a session, ended or not (worker-handles.md §7). */
export function workerRooms(q: Queryable, workerId: string): Promise<string[]> {
  return listWorkerRoomIds(q, workerId);
}

/** A worker created in another place (this computer, or another team) joins a room of this one: the same worker, written here once. */
export function adoptWorker(tx: Tx, worker: WorkerRow): Promise<void> {
  return copyWorkerRow(tx, worker);
}
