// The installation's host id (`host_<32 hex>`), created once and kept in settings.
import { randomBytes } from 'node:crypto';
import type { Storage } from '../store/port';
import { ensureSetting } from '../store/settingsQueries';

/** Reads (creating on first use) the host id; the answer is kept, so it is read once per hub (a failure is not kept). */
export function hostIdOf(store: Storage): () => Promise<string> {
  let hostId: Promise<string> | null = null;
  return () =>
    (hostId ??= store.write((tx) => ensureSetting(tx, 'host_id', `host_${randomBytes(16).toString('hex')}`)).catch((error: unknown) => {
      hostId = null;
      throw error;
    }));
}
