// When managed turns run: one turn at a time per agent; whatever arrives during a turn
// queues exactly one next turn (all of it together); at most `maxConcurrent` turns run at
// once (the rest wait in arrival order); a turn that runs past the time limit is aborted,
// and Stop aborts one now. Triggers that arrive together (one commit) start one turn.
import type { Trigger } from './types';

export type TurnAbortReason = 'stopped' | 'timed_out' | 'closing';

export interface TurnSchedulerOptions {
  /** Turns running at once across all agents (default 2). */
  readonly maxConcurrent?: number;
  /** A turn is aborted after this long (default 10 min). */
  readonly turnTimeLimitMs?: number;
  /** Runs one turn; `signal` aborts with a TurnAbortReason. Must settle after the process is gone. */
  runTurn(agentId: string, triggers: Trigger[], signal: AbortSignal): Promise<void>;
  /** An agent went idle, queued or running. */
  onStateChange?(agentId: string): void;
}

export const DEFAULT_MAX_CONCURRENT_TURNS = 2;
export const DEFAULT_TURN_TIME_LIMIT_MS = 10 * 60_000;

interface RunningTurn {
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

export class TurnScheduler {
  private readonly pending = new Map<string, Trigger[]>();
  private readonly running = new Map<string, RunningTurn>();
  private waiting: string[] = [];
  private pumpScheduled = false;
  private closed = false;
  private readonly maxConcurrent: number;
  private readonly timeLimitMs: number;

  constructor(private readonly options: TurnSchedulerOptions) {
    this.maxConcurrent = Math.max(1, options.maxConcurrent ?? DEFAULT_MAX_CONCURRENT_TURNS);
    this.timeLimitMs = options.turnTimeLimitMs ?? DEFAULT_TURN_TIME_LIMIT_MS;
  }

  /** Asks for a turn: now (when a slot is free), or right after the agent's running turn. */
  request(agentId: string, trigger: Trigger): void {
    if (this.closed) return;
    const list = this.pending.get(agentId) ?? [];
    list.push(trigger);
    this.pending.set(agentId, list);
    if (!this.running.has(agentId) && !this.waiting.includes(agentId)) {
      this.waiting.push(agentId);
      this.options.onStateChange?.(agentId);
    }
    this.schedulePump();
  }

  state(agentId: string): 'idle' | 'queued' | 'running' {
    if (this.running.has(agentId)) return 'running';
    return this.waiting.includes(agentId) ? 'queued' : 'idle';
  }

  /** Forgets the queued turn (Pause) and returns what it would have had; a running turn goes on. */
  forget(agentId: string): Trigger[] {
    const dropped = this.pending.get(agentId) ?? [];
    this.pending.delete(agentId);
    const before = this.waiting.length;
    this.waiting = this.waiting.filter((id) => id !== agentId);
    if (this.waiting.length !== before) this.options.onStateChange?.(agentId);
    return dropped;
  }

  /** Ends the running turn now and forgets the queued one; false when none was running. */
  async stop(agentId: string): Promise<boolean> {
    this.forget(agentId);
    const turn = this.running.get(agentId);
    if (!turn) return false;
    turn.controller.abort('stopped' satisfies TurnAbortReason);
    await turn.done;
    return true;
  }

  /** Aborts every running turn and waits for them; nothing new starts. */
  async close(): Promise<void> {
    this.closed = true;
    this.pending.clear();
    this.waiting = [];
    const turns = [...this.running.values()];
    for (const turn of turns) turn.controller.abort('closing' satisfies TurnAbortReason);
    await Promise.all(turns.map((t) => t.done));
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    // After the current commit's listeners have all run, so its triggers make one turn.
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.maxConcurrent && this.waiting.length > 0) {
      const agentId = this.waiting.shift()!;
      const triggers = this.pending.get(agentId) ?? [];
      this.pending.delete(agentId);
      if (triggers.length > 0) this.start(agentId, triggers);
    }
  }

  private start(agentId: string, triggers: Trigger[]): void {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort('timed_out' satisfies TurnAbortReason), this.timeLimitMs);
    const done = Promise.resolve()
      .then(() => this.options.runTurn(agentId, triggers, controller.signal))
      .catch((error: unknown) => console.error(`managed agent ${agentId}: the turn failed:`, error))
      .finally(() => {
        clearTimeout(timer);
        this.running.delete(agentId);
        // Whatever arrived meanwhile is the one next turn.
        if (!this.closed && this.pending.has(agentId)) this.waiting.push(agentId);
        this.options.onStateChange?.(agentId);
        this.schedulePump();
      });
    this.running.set(agentId, { controller, done });
    this.options.onStateChange?.(agentId);
  }
}
