// Approvals from the app: one service for both sources. A managed agent's "Ask me" turn asks
// through our permission-prompt tool; an interactive Claude Code session asks through the
// channel permission relay. Each request is a stored row (a "Needs you" item while pending)
// and a waiter; the first answer wins (the person, the time limit, or the end of the turn or
// session that asked). Decisions about a managed turn go into that agent's activity log.
import type { ApprovalDecision } from '../../shared/model/approvals';
import { appErrors } from '../domain/errors';
import type { EventBus } from '../events/bus';
import {
  closeAllPendingApprovalRows, getApprovalRow, insertApprovalRow, listPendingApprovalRows, settleApprovalRow,
  type ApprovalRow, type NewApprovalRow,
} from '../store/approvalQueries';
import { insertActivityRow } from '../store/managedAgentQueries';
import type { Storage, Tx } from '../store/port';
import { getSetting } from '../store/settingsQueries';
import { getRoom } from '../domain/rooms/rooms';
import { postSystemEvent } from '../domain/systemEvents';
import { cutInputRefusal, inputCut, logSummary } from './requestText';

export const APPROVAL_TIMEOUT_SETTING = 'approvals.timeoutMinutes';
export const DEFAULT_APPROVAL_TIMEOUT_MINUTES = 10;

/**
 * What the asking agent is told, and who settled it: the person, the time limit, or the end of
 * the turn or session that asked (a channel request is answered back only when the person did).
 */
export type ApprovalAnswer = ({ behavior: 'allow' } | { behavior: 'deny'; message: string }) & { by: 'person' | 'limit' | 'closed' | 'turn' };

/** A managed turn that may ask (its key travels in its helper's hello). */
export interface AskingTurn {
  readonly agentId: string;
  readonly turnNumber: number;
  readonly roomId: string;
  readonly sessionId: string;
  readonly agentName: string;
}

export interface ApprovalRequest extends Omit<NewApprovalRow, 'agent_id' | 'turn_number' | 'room_id'> {
  /** The room the agent is in: its item shows there. */
  readonly room_id: string;
  /** Who waits: a turn key or a connection id; closeOwner() ends what it still waits for. */
  readonly owner: string;
}

interface Waiter {
  readonly owner: string;
  readonly row: Pick<ApprovalRow, 'number' | 'agent_id' | 'turn_number' | 'tool' | 'description' | 'room_id'>;
  readonly resolve: (answer: ApprovalAnswer) => void;
  readonly timer: NodeJS.Timeout;
}

const NO_ANSWER = 'The person did not answer in time, so this was not allowed.';
const PERSON_DENIED = 'The person denied this';

/**
 * Whether a tool's refusal is one of these answers (the person's Deny, or no answer in time):
 * the agent's log already says who decided, so its CLI's own record of the denial is not a
 * second, different story (issue 35: "outside the permissions chosen" after a person's Deny).
 */
export function isApprovalAnswer(text: string): boolean {
  return text.startsWith(PERSON_DENIED) || text === NO_ANSWER;
}

export class Approvals {
  private readonly waiters = new Map<number, Waiter>();
  private readonly turns = new Map<string, AskingTurn & { allowed: Set<string> }>();
  readonly ready: Promise<void>;

  constructor(
    private readonly store: Storage,
    private readonly bus: EventBus,
  ) {
    // Whatever was pending when the app last stopped has nobody waiting for it now.
    this.ready = store
      .write((tx) => closeAllPendingApprovalRows(tx, 'The app stopped while this waited.'))
      .then(() => undefined)
      .catch((error: unknown) => console.error('approvals: could not close old requests:', error));
  }

  /** A managed "Ask me" turn starts: its helper's connection may ask, under `key`. */
  openTurn(key: string, turn: AskingTurn): void {
    this.turns.set(key, { ...turn, allowed: new Set() });
  }

  /** The turn ended (or was stopped): what it still waits for closes; its "for this turn" answers go. */
  async closeTurn(key: string, reason: string): Promise<void> {
    this.turns.delete(key);
    await this.closeOwner(key, reason);
  }

  turnOf(key: string | null | undefined): AskingTurn | undefined {
    return key ? this.turns.get(key) : undefined;
  }

  /**
   * Asks the person; resolves with the answer (denied when unanswered in time, or when its
   * turn or session ends first). A tool allowed "for this turn" is allowed at once.
   */
  async ask(request: ApprovalRequest, turnKey: string | null = null): Promise<ApprovalAnswer> {
    await this.ready;
    const turn = turnKey ? this.turns.get(turnKey) : undefined;
    if (turn?.allowed.has(request.tool)) {
      await this.store.write((tx) => this.note(tx, turn.agentId, turn.turnNumber, `${request.tool} ${logSummary(request.description)} — allowed (allowed for this turn).`));
      return { behavior: 'allow', by: 'turn' };
    }
    const timeoutMs = await this.timeoutMs();
    const row = { ...request, agent_id: turn?.agentId ?? null, turn_number: turn?.turnNumber ?? null };
    const number = await this.store.write(async (tx) => {
      const n = await insertApprovalRow(tx, row);
      if (turn) await this.note(tx, turn.agentId, turn.turnNumber, `Asked the person to allow ${request.tool} ${logSummary(request.description)}`.trim());
      // The room says so too (issue 35): whoever reads it knows why the agent went quiet. It wakes no one.
      if (turn && (await getRoom(tx, request.room_id))) {
        const what = logSummary(request.description);
        await postSystemEvent(tx, request.room_id, `${turn.agentName} waits for your approval to use ${request.tool}${what ? `: ${what}` : ''} (Needs you).`, null);
      }
      tx.emit({ type: 'needsYou.changed', roomId: request.room_id });
      return n;
    });
    return new Promise<ApprovalAnswer>((resolve) => {
      const timer = setTimeout(() => void this.settle(number, { status: 'denied', decision: 'deny', note: null, decidedBy: null, closedReason: NO_ANSWER }), timeoutMs);
      timer.unref();
      this.waiters.set(number, { owner: request.owner, row: { number, ...row, description: request.description }, resolve, timer });
    });
  }

  /** The person's answer; `settled` false when something answered first (nothing changes then). */
  async decide(number: number, decision: ApprovalDecision, note: string | null, person: string): Promise<{ settled: boolean; message: string }> {
    const row = await this.store.read((q) => getApprovalRow(q, number));
    if (!row) return { settled: false, message: 'There is no such request.' };
    if (decision === 'allow_turn' && row.source !== 'managed_turn') decision = 'allow_once';
    // Allow runs the whole input: never one the person could not see whole.
    if (decision !== 'deny' && row.status === 'pending' && inputCut(row)) throw appErrors.invalidInput(cutInputRefusal(row));
    const status = decision === 'deny' ? 'denied' : 'allowed';
    const settled = await this.settle(number, { status, decision, note: note?.trim() || null, decidedBy: person, closedReason: null });
    if (settled) return { settled: true, message: decision === 'deny' ? `Denied ${row.tool}.` : `Allowed ${row.tool}${decision === 'allow_turn' ? ' for this turn' : ''}.` };
    const now = await this.store.read((q) => getApprovalRow(q, number));
    return { settled: false, message: `Already settled: ${settledText(now ?? row)} Your answer changed nothing.` };
  }

  /** Ends what `owner` (a turn key, a connection) still waits for. */
  async closeOwner(owner: string, reason: string): Promise<void> {
    for (const [number, waiter] of [...this.waiters]) {
      if (waiter.owner === owner) await this.settle(number, { status: 'closed', decision: null, note: null, decidedBy: null, closedReason: reason });
    }
  }

  /** The pending requests (the "Needs you" items), newest first, with when each runs out. */
  async pending(): Promise<Array<ApprovalRow & { expires_at: string | null }>> {
    await this.ready;
    const rows = await this.store.read((q) => listPendingApprovalRows(q));
    const limit = await this.timeoutMs();
    return rows.map((row) => ({ ...row, expires_at: this.waiters.has(row.number) ? new Date(Date.parse(row.created_at) + limit).toISOString() : null }));
  }

  close(): void {
    for (const waiter of this.waiters.values()) clearTimeout(waiter.timer);
  }

  private async settle(number: number, outcome: Parameters<typeof settleApprovalRow>[2]): Promise<boolean> {
    const waiter = this.waiters.get(number);
    const settled = await this.store.write(async (tx) => {
      if (!(await settleApprovalRow(tx, number, outcome))) return false;
      const row = (await getApprovalRow(tx, number))!;
      if (row.agent_id !== null && row.turn_number !== null) await this.note(tx, row.agent_id, row.turn_number, `${row.tool} ${logSummary(row.description)}: ${settledText(row)}`);
      if (row.room_id) tx.emit({ type: 'needsYou.changed', roomId: row.room_id });
      return true;
    });
    if (!settled || !waiter) return settled;
    clearTimeout(waiter.timer);
    this.waiters.delete(number);
    if (outcome.decision === 'allow_turn') {
      for (const turn of this.turns.values()) if (turn.agentId === waiter.row.agent_id && turn.turnNumber === waiter.row.turn_number) turn.allowed.add(waiter.row.tool);
    }
    const by = outcome.decidedBy !== null ? 'person' : outcome.status === 'closed' ? 'closed' : 'limit';
    waiter.resolve(
      outcome.status === 'allowed'
        ? { behavior: 'allow', by }
        : { behavior: 'deny', by, message: outcome.note ? `${PERSON_DENIED}: ${outcome.note}` : outcome.closedReason ?? `${PERSON_DENIED}.` },
    );
    return true;
  }

  private async note(tx: Tx, agentId: string, turn: number, text: string): Promise<void> {
    await insertActivityRow(tx, agentId, turn, 'note', text);
    tx.emit({ type: 'agent.activity', agentId, turn });
  }

  private async timeoutMs(): Promise<number> {
    const stored = Number(await this.store.read((q) => getSetting(q, APPROVAL_TIMEOUT_SETTING)));
    return (Number.isInteger(stored) && stored > 0 ? stored : DEFAULT_APPROVAL_TIMEOUT_MINUTES) * 60_000;
  }
}

/** How a settled request ended, in a few words for the log and the item. */
export function settledText(row: Pick<ApprovalRow, 'status' | 'decision' | 'note' | 'decided_by' | 'closed_reason'>): string {
  const by = row.decided_by ? ` by ${row.decided_by}` : '';
  if (row.status === 'allowed') return `allowed ${row.decision === 'allow_turn' ? 'for this turn' : 'once'}${by}.`;
  if (row.status === 'denied') return row.decided_by ? `denied${by}${row.note ? `: ${row.note}` : '.'}` : (row.closed_reason ?? 'denied.');
  if (row.status === 'closed') return `closed: ${row.closed_reason ?? 'nobody waits for it any more.'}`;
  return 'still waiting.';
}
