// The record of one managed turn: its row (trigger, status, tokens, cost, error), its
// activity log entries as they happen, and the per-turn usage worked out from what the
// provider reports (some report running totals of their session, not per run).
import type { Storage } from '../store/port';
import {
  finishTurnRow,
  insertActivityRow,
  insertTurnRow,
  pruneActivityRows,
  pruneTurnRows,
  setProviderSession,
  type ActivityKindRow,
  type TriggerKindRow,
  type TurnOutcome,
} from '../store/managedAgentQueries';
import { describeTriggers } from './prompt';
import { preview } from './providers/streamText';
import type { ActivityEvent, Trigger } from './types';

/** Activity of this many latest turns is kept; turns themselves for the budget windows. */
const KEEP_ACTIVITY_TURNS = 50;
const KEEP_TURNS_MS = 8 * 24 * 3_600_000;
const WORKER_ID = /worker_[0-9a-f]{32}/g;

/** A provider session's running totals, kept with the agent between turns. */
export interface SessionTotals {
  sessionId: string;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

export function parseTotals(json: string | null): SessionTotals | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as SessionTotals;
  } catch {
    return null;
  }
}

export class TurnLog {
  inputTokens = 0;
  outputTokens = 0;
  costUsd: number | null = null;

  private constructor(
    private readonly store: Storage,
    readonly agentId: string,
    readonly turn: number,
    private totals: SessionTotals | null,
    private readonly secrets: readonly string[],
  ) {}

  /**
   * Opens the turn (status running) with its trigger as the first log entry. `secrets` (the
   * agent token) never enter the log, whatever a tool printed.
   */
  static async open(store: Storage, agentId: string, triggers: readonly Trigger[], totals: SessionTotals | null, secrets: readonly string[] = []): Promise<TurnLog> {
    const text = preview(describeTriggers(triggers).join(' '), 500);
    const turn = await store.write(async (tx) => {
      const n = await insertTurnRow(tx, agentId, { kind: storedKind(triggers[0]), text });
      await insertActivityRow(tx, agentId, n, 'trigger', text);
      tx.emit({ type: 'agent.changed', agentId });
      tx.emit({ type: 'agent.activity', agentId, turn: n });
      return n;
    });
    return new TurnLog(store, agentId, turn, totals, secrets.filter((secret) => secret.length >= 8));
  }

  /** A line added to a turn that has ended: what the service decided about it (a hold, a retry). */
  static async note(store: Storage, agentId: string, turn: number, text: string): Promise<void> {
    await store.write(async (tx) => {
      await insertActivityRow(tx, agentId, turn, 'note', text);
      tx.emit({ type: 'agent.activity', agentId, turn });
    });
  }

  async entry(kind: ActivityKindRow, text: string): Promise<void> {
    await this.store.write(async (tx) => {
      // The log is for people: a worker_id (a handle only its chat should hold) never shows.
      const shown = this.secrets.reduce((t, secret) => t.split(secret).join('[secret]'), text.replace(WORKER_ID, 'worker_…'));
      await insertActivityRow(tx, this.agentId, this.turn, kind, shown);
      tx.emit({ type: 'agent.activity', agentId: this.agentId, turn: this.turn });
    });
  }

  /** A provider session started or was continued; a new session starts its totals at zero. */
  async session(sessionId: string): Promise<void> {
    if (this.totals?.sessionId !== sessionId) this.totals = { sessionId, inputTokens: 0, outputTokens: 0, costUsd: null };
    await this.saveSession();
  }

  /** The saved session could not be continued: forget it (the next attempt starts a new one). */
  async forgetSession(): Promise<void> {
    this.totals = null;
    await this.saveSession();
  }

  /** Adds what a usage report means for this turn. */
  async usage(event: Extract<ActivityEvent, { kind: 'usage' }>): Promise<void> {
    const before = this.totals;
    const delta = (now: number, then: number | null | undefined) => (then != null && now >= then ? now - then : now);
    if (event.tokensScope === 'run') {
      this.inputTokens += event.inputTokens;
      this.outputTokens += event.outputTokens;
    } else {
      this.inputTokens += delta(event.inputTokens, before?.inputTokens);
      this.outputTokens += delta(event.outputTokens, before?.outputTokens);
    }
    if (event.costUsd !== null) {
      this.costUsd = (this.costUsd ?? 0) + (event.costScope === 'run' ? event.costUsd : delta(event.costUsd, before?.costUsd));
    }
    if (before) {
      this.totals = {
        sessionId: before.sessionId,
        inputTokens: event.tokensScope === 'session' ? event.inputTokens : before.inputTokens,
        outputTokens: event.tokensScope === 'session' ? event.outputTokens : before.outputTokens,
        costUsd: event.costScope === 'session' && event.costUsd !== null ? event.costUsd : before.costUsd,
      };
      await this.saveSession();
    }
  }

  async finish(status: TurnOutcome['status'], error: string | null): Promise<void> {
    const outcome: TurnOutcome = { status, inputTokens: this.inputTokens, outputTokens: this.outputTokens, costUsd: this.costUsd, error };
    await this.store.write(async (tx) => {
      await finishTurnRow(tx, this.agentId, this.turn, outcome);
      await pruneActivityRows(tx, this.agentId, this.turn - KEEP_ACTIVITY_TURNS + 1);
      await pruneTurnRows(tx, this.agentId, new Date(Date.parse(tx.now) - KEEP_TURNS_MS).toISOString());
      tx.emit({ type: 'agent.changed', agentId: this.agentId });
      tx.emit({ type: 'agent.activity', agentId: this.agentId, turn: this.turn });
    });
  }

  private async saveSession(): Promise<void> {
    const totals = this.totals;
    await this.store.write((tx) => setProviderSession(tx, this.agentId, totals?.sessionId ?? null, totals ? JSON.stringify(totals) : null));
  }
}

/**
 * The trigger kind a turn row keeps. An automation's turn is kept as `run_now` (a turn nobody's
 * message asked for), so the row fits the table's CHECK before and after the migration that drops
 * it; the automation it ran for is in automation_run_turns, and the activity names it.
 */
function storedKind(trigger: Trigger | undefined): TriggerKindRow {
  return trigger === undefined || trigger.kind === 'automation' ? 'run_now' : trigger.kind;
}
