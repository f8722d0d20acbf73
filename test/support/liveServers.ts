// The PostgreSQL clusters and PgBouncers this test process started and has not stopped yet.
// vitest ends a worker with SIGTERM once its file is done, so an `exit` hook never runs there:
// whatever a file does not stop itself outlives the run. So every test file ends with a check
// (liveServersCheck.ts, vitest's setupFiles) that stops what is still running and fails the file,
// naming it; and a worker ended early (SIGTERM mid-file) stops them before it goes.

export interface LiveServer {
  /** What it is, for the check's message: "PostgreSQL cluster /tmp/letagents-pg-…". */
  readonly what: string;
  /** Stops it at once (synchronous: it runs in signal and exit handlers too). */
  stop(): void;
}

const live = new Set<LiveServer>();

/** Notes `server` as running until the returned function says it stopped. */
export function serverStarted(server: LiveServer): () => void {
  live.add(server);
  watchExit();
  return () => void live.delete(server);
}

/** Stops every server still running (newest first: a pooler before the cluster behind it); returns what they were. */
export function stopLiveServers(): string[] {
  const left = [...live].reverse();
  for (const server of left) {
    try {
      server.stop();
    } catch {
      // stopping the rest matters more
    }
    live.delete(server);
  }
  return left.map((s) => s.what);
}

let watching = false;
function watchExit(): void {
  if (watching) return;
  watching = true;
  process.once('exit', () => void stopLiveServers());
  // vitest's own process handles SIGTERM (and exits, which runs the hook above). A worker does not:
  // one ended mid-file (the run cancelled) stops them, then ends as SIGTERM would have.
  if (process.listenerCount('SIGTERM') > 0) return;
  process.once('SIGTERM', () => {
    stopLiveServers();
    process.kill(process.pid, 'SIGTERM');
  });
}
