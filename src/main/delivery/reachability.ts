// Whether a mention would reach an agent session now (issue 14), from what the app sees of
// it in memory: listening (inside wait_for_messages: a mention wakes it at once), working
// (called a tool in the last 2 minutes and is not waiting: it sees news on its next call),
// idle (connected but neither: a mention waits until someone prompts it), or offline.
// Managed agents and ended sessions are told apart by the callers, which read the store.
// Changes are reported to listeners (the UI), including the ones time makes. A session is
// named by its key: its place and id (domain/placeKeys.ts), as the worker bindings name it;
// `sessionId` below is that key.
export type LiveReachability = 'listening' | 'working' | 'idle' | 'offline';

/** How long after its last tool call an agent counts as working. */
export const WORKING_MS = 120_000;

export class Reachability {
  private readonly lastCall = new Map<string, number>();
  private readonly waits = new Map<string, number>();
  private readonly reported = new Map<string, LiveReachability>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly listeners = new Set<(sessionId: string, state: LiveReachability) => void>();
  private readonly callListeners = new Set<(sessionId: string) => void>();

  constructor(
    private readonly isOnline: (sessionId: string) => boolean,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The session called a tool (any tool, waits included). */
  called(sessionId: string): void {
    this.lastCall.set(sessionId, this.clock());
    // One pending re-check per session at most: it looks again when it fires (cheaper than a new timer per call).
    if (!this.timers.has(`working\n${sessionId}`)) this.recheckAfter(sessionId, WORKING_MS, 'working');
    this.check(sessionId);
    for (const listener of this.callListeners) listener(sessionId);
  }

  /** Hears every tool call of every session (an untouched task is touched at last). */
  onCall(listener: (sessionId: string) => void): () => void {
    this.callListeners.add(listener);
    return () => this.callListeners.delete(listener);
  }

  waitStarted(sessionId: string): void {
    this.waits.set(sessionId, (this.waits.get(sessionId) ?? 0) + 1);
    this.check(sessionId);
  }

  waitEnded(sessionId: string): void {
    const left = (this.waits.get(sessionId) ?? 1) - 1;
    if (left > 0) this.waits.set(sessionId, left);
    else this.waits.delete(sessionId);
    this.called(sessionId);
  }

  /** Its connection opened, closed or changed hands: online may change now and after `graceMs`. */
  connectionChanged(sessionId: string, graceMs: number): void {
    this.check(sessionId);
    this.recheckAfter(sessionId, graceMs + 50, 'online');
  }

  state(sessionId: string): LiveReachability {
    if ((this.waits.get(sessionId) ?? 0) > 0) return 'listening';
    if (!this.isOnline(sessionId)) return 'offline';
    const last = this.lastCall.get(sessionId);
    return last !== undefined && this.clock() - last < WORKING_MS ? 'working' : 'idle';
  }

  /** When the session last called a tool since the app started (epoch ms), or null. */
  lastCallAt(sessionId: string): number | null {
    return this.lastCall.get(sessionId) ?? null;
  }

  onChange(listener: (sessionId: string, state: LiveReachability) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.listeners.clear();
    this.callListeners.clear();
  }

  private check(sessionId: string): void {
    const state = this.state(sessionId);
    if (this.reported.get(sessionId) === state) return;
    this.reported.set(sessionId, state);
    for (const listener of [...this.listeners]) {
      try {
        listener(sessionId, state);
      } catch (error) {
        console.error('reachability listener failed:', error);
      }
    }
  }

  /** One pending re-check per session and cause: the end of working, the end of the reconnect grace. */
  private recheckAfter(sessionId: string, ms: number, cause: 'working' | 'online'): void {
    const key = `${cause}\n${sessionId}`;
    clearTimeout(this.timers.get(key));
    const timer = setTimeout(() => {
      this.timers.delete(key);
      // A call since the timer was set moved the end of working: wait for that instead.
      const left = cause === 'working' ? (this.lastCall.get(sessionId) ?? 0) + WORKING_MS - this.clock() : 0;
      if (left > 0) this.recheckAfter(sessionId, left, cause);
      else this.check(sessionId);
    }, ms);
    timer.unref?.();
    this.timers.set(key, timer);
  }
}
