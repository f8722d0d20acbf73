// vitest setupFiles: after each test file's own hooks, fails the file if it left a PostgreSQL
// cluster or PgBouncer of its own running (and stops it), so a leak shows where it starts.
import { afterAll } from 'vitest';
import { stopLiveServers } from './liveServers';

afterAll(() => {
  const left = stopLiveServers();
  if (left.length > 0) {
    throw new Error(`This test file left ${left.join(', ')} running: stop what it starts in its afterAll (stopped now).`);
  }
});
