// Provider limits that pass by themselves (issue 36). A used-up usage limit with a reset time
// holds the agent until then, says so once in its room ("… resumes after 14:00"), and resumes it
// by itself with what waited (the refused turn's triggers first); the hold survives a restart.
// A short rate limit or an overload tries the same triggers again after a backoff (30 s, 2 min,
// 8 min), without a hold; past the last one the turn stays an ordinary failed turn.
import { getManagedAgentRow, listManagedAgentRows, updateManagedAgentState, type ManagedAgentRow } from '../store/managedAgentQueries';
import type { Storage } from '../store/port';
import { MAX_TIMER_MS, type Clock } from './clock';
import { providerOf } from './providers';
import { timeText } from './timeText';
import { TurnLog } from './turnLog';
import type { Trigger } from './types';

export const RATE_LIMIT_BACKOFF_MS: readonly number[] = [30_000, 120_000, 480_000];
/** A reset further off than this is not believed: the agent is treated as unable to run. */
export const MAX_LIMIT_HOLD_MS = 8 * 24 * 3_600_000;

export interface UsageLimitsOptions {
  readonly store: Storage;
  readonly clock: Clock;
  readonly backoffMs?: readonly number[];
  /** No turns for now: the queued triggers are kept. */
  stopTurns(agentId: string): Promise<void>;
  keep(agentId: string, triggers: readonly Trigger[]): Promise<void>;
  /** Takes turns again and gets what waited as its next turn. */
  resumeTurns(agentId: string): Promise<void>;
  /** Posts the one room notice of a hold (a message that starts no turn). */
  notice(row: ManagedAgentRow, text: string): Promise<void>;
  /** Its name in the room now. */
  nameOf(row: ManagedAgentRow): Promise<string>;
}

export class UsageLimits {
  private readonly timers = new Map<string, () => void>();
  private readonly retries = new Map<string, { attempt: number; at: number; cancel: () => void }>();
  private readonly backoff: readonly number[];

  constructor(private readonly options: UsageLimitsOptions) {
    this.backoff = options.backoffMs ?? RATE_LIMIT_BACKOFF_MS;
  }

  /** A reset time worth waiting for (in the future, within MAX_LIMIT_HOLD_MS). */
  believable(resetsAt: string): boolean {
    const until = Date.parse(resetsAt);
    const now = this.options.clock.now();
    return Number.isFinite(until) && until > now && until - now <= MAX_LIMIT_HOLD_MS;
  }

  /** Holds the agent until `resetsAt`, keeping `triggers` (the refused turn's) for the turn after it. */
  async hold(row: ManagedAgentRow, turn: number, triggers: readonly Trigger[], resetsAt: string): Promise<void> {
    const { store, clock } = this.options;
    await this.options.stopTurns(row.agent_id);
    await this.options.keep(row.agent_id, triggers);
    const provider = providerOf(row.provider).name;
    const when = timeText(Date.parse(resetsAt), clock.now());
    await store.write(async (tx) => {
      await updateManagedAgentState(tx, row.agent_id, { limit_until: resetsAt });
      tx.emit({ type: 'agent.changed', agentId: row.agent_id });
    });
    await TurnLog.note(store, row.agent_id, turn, `${provider}'s usage limit is reached: no turns until it resets; it resumes by itself after ${when}.`);
    await this.options.notice(row, `${await this.options.nameOf(row)} reached ${provider}'s usage limit and resumes after ${when}.`);
    this.arm(row.agent_id, Date.parse(resetsAt));
  }

  /** Tries the triggers again after the next backoff; false once the backoffs are used up. */
  async retry(row: ManagedAgentRow, turn: number, triggers: readonly Trigger[]): Promise<boolean> {
    const { clock } = this.options;
    const attempt = (this.retries.get(row.agent_id)?.attempt ?? 0) + 1;
    this.retries.get(row.agent_id)?.cancel();
    if (attempt > this.backoff.length) {
      this.retries.delete(row.agent_id);
      await TurnLog.note(this.options.store, row.agent_id, turn, `Still rate limited after ${this.backoff.length} tries; the next message for it starts a new turn.`);
      return false;
    }
    const delay = this.backoff[attempt - 1];
    await this.options.keep(row.agent_id, triggers);
    const at = clock.now() + delay;
    const cancel = clock.after(delay, () => void this.retryNow(row.agent_id));
    this.retries.set(row.agent_id, { attempt, at, cancel });
    await TurnLog.note(this.options.store, row.agent_id, turn, `Rate limited by ${providerOf(row.provider).name}: trying again in ${seconds(delay)} (try ${attempt} of ${this.backoff.length}).`);
    return true;
  }

  /** Whether a rate-limited turn of the agent is tried again (its backoffs are not used up). */
  canRetry(agentId: string): boolean {
    return (this.retries.get(agentId)?.attempt ?? 0) < this.backoff.length;
  }

  /** A turn went through: the backoff starts over. */
  succeeded(agentId: string): void {
    this.retries.get(agentId)?.cancel();
    this.retries.delete(agentId);
  }

  /** When a rate-limited agent tries again (ISO), or null. */
  retryAt(agentId: string): string | null {
    const retry = this.retries.get(agentId);
    return retry ? new Date(retry.at).toISOString() : null;
  }

  /** The person resumed or removed it: no timer of it is left. */
  forget(agentId: string): void {
    this.timers.get(agentId)?.();
    this.timers.delete(agentId);
    this.succeeded(agentId);
  }

  /** At start-up: holds of a running app come back (one whose reset passed ends now). */
  async restore(): Promise<void> {
    for (const row of await this.options.store.read((q) => listManagedAgentRows(q))) {
      if (row.limit_until !== null) this.arm(row.agent_id, Date.parse(row.limit_until));
    }
  }

  close(): void {
    for (const cancel of this.timers.values()) cancel();
    for (const retry of this.retries.values()) retry.cancel();
    this.timers.clear();
    this.retries.clear();
  }

  private arm(agentId: string, untilMs: number): void {
    this.timers.get(agentId)?.();
    const delay = Math.max(0, untilMs - this.options.clock.now());
    this.timers.set(agentId, this.options.clock.after(Math.min(delay, MAX_TIMER_MS), () => void this.end(agentId).catch(logFailure(agentId))));
  }

  /** The reset time came: the hold ends, and what waited is its next turn. */
  private async end(agentId: string): Promise<void> {
    this.timers.delete(agentId);
    const row = await this.options.store.read((q) => getManagedAgentRow(q, agentId));
    if (!row || row.limit_until === null) return;
    const until = Date.parse(row.limit_until);
    if (until > this.options.clock.now()) return this.arm(agentId, until);
    await this.options.store.write(async (tx) => {
      await updateManagedAgentState(tx, agentId, { limit_until: null });
      tx.emit({ type: 'agent.changed', agentId });
    });
    await this.options.resumeTurns(agentId);
  }

  private async retryNow(agentId: string): Promise<void> {
    await this.options.resumeTurns(agentId).catch(logFailure(agentId));
  }
}

const seconds = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1_000)} s` : `${Math.round(ms / 60_000)} min`);
const logFailure = (agentId: string) => (error: unknown) => console.error(`managed agent ${agentId}: could not resume after a limit:`, error);
