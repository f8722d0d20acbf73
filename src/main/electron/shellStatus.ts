// What the tray and notifications show: how many agents are online and the "Needs you"
// items, read through the app API and refreshed (coalesced) after the events that change them.
import type { AgentSession } from '../../shared/model/workers';
import { waitsForPerson, type NeedsYouItem } from '../../shared/model/needsYou';
import { callApi, type ShellApi } from './shellApi';

export interface ShellStatusSnapshot {
  /** Distinct agents connected now. */
  readonly agentsOnline: number;
  /** The queue, newest first (as the "Needs you" view lists it). */
  readonly needsYou: readonly NeedsYouItem[];
}

type StatusListener = (next: ShellStatusSnapshot, previous: ShellStatusSnapshot) => void;

/** Events after which the counts may differ. */
const REFRESHING_EVENTS = new Set(['message.created', 'task.changed', 'worker.changed', 'needsYou.changed', 'room.changed', 'auth.changed']);
/** Agents chatting send bursts of events: one refresh per burst. */
const COALESCE_MS = 400;
/** Presence also changes without events (an agent's connection times out). */
const POLL_MS = 30_000;

export const EMPTY_STATUS: ShellStatusSnapshot = { agentsOnline: 0, needsYou: [] };

export class ShellStatus {
  private snapshot: ShellStatusSnapshot = EMPTY_STATUS;
  private readonly listeners = new Set<StatusListener>();
  private unsubscribe: (() => void) | null = null;
  private poll: ReturnType<typeof setInterval> | null = null;
  private pending: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly api: ShellApi) {}

  current(): ShellStatusSnapshot {
    return this.snapshot;
  }

  onChange(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts following events and reads the first snapshot. */
  start(): Promise<void> {
    this.unsubscribe = this.api.subscribe((event) => {
      const type = (event as { type?: unknown } | null)?.type;
      if (typeof type === 'string' && REFRESHING_EVENTS.has(type)) this.refreshSoon();
    });
    this.poll = setInterval(() => void this.refresh(), POLL_MS);
    this.poll.unref?.();
    return this.refresh();
  }

  refreshSoon(): void {
    if (this.pending) return;
    this.pending = setTimeout(() => {
      this.pending = null;
      void this.refresh();
    }, COALESCE_MS);
    this.pending.unref?.();
  }

  /** Reads both counts now; a refresh asked for while one runs happens right after it. */
  refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.read().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.running;
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.poll) clearInterval(this.poll);
    if (this.pending) clearTimeout(this.pending);
    this.poll = this.pending = null;
    this.listeners.clear();
  }

  private async read(): Promise<void> {
    const [workers, queue] = await Promise.all([callApi(this.api, 'workers.list'), callApi(this.api, 'needsYou.list')]);
    const sessions = (workers ?? []) as AgentSession[];
    const online = new Set(sessions.filter((s) => s.online && !s.ended).map((s) => s.agentKey));
    const next: ShellStatusSnapshot = {
      agentsOnline: online.size,
      // Answered approvals stay in the queue a while; they wait for nobody.
      needsYou: ((queue as { items?: NeedsYouItem[] } | null)?.items ?? []).filter(waitsForPerson),
    };
    const previous = this.snapshot;
    this.snapshot = next;
    for (const listener of this.listeners) {
      try {
        listener(next, previous);
      } catch (error) {
        console.error('shell status listener failed:', error);
      }
    }
  }
}
