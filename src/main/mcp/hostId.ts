// The installation's host id (`host_<32 hex>`), created once and kept in settings.
import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store';
import { ensureSetting } from '../store/settingsQueries';

export function getOrCreateHostId(store: Store): string {
  return ensureSetting(store.db, 'host_id', `host_${randomBytes(16).toString('hex')}`);
}
