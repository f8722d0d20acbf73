// Batches "last seen" touches of agent sessions: reads stay read-only, and the newest
// activity reaches the database within a few seconds (and on close).
import type { Storage } from '../store/port';
import { touchLastSeen } from '../domain/sessions/presence';

const FLUSH_EVERY_MS = 5_000;

export class LastSeenTracker {
  private readonly dirty = new Set<string>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly store: Storage) {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  touch(sessionId: string): void {
    this.dirty.add(sessionId);
  }

  async flush(): Promise<void> {
    if (this.dirty.size === 0) return;
    const ids = [...this.dirty];
    this.dirty.clear();
    await this.store
      .write(async (tx) => {
        for (const id of ids) await touchLastSeen(tx, id);
      })
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
