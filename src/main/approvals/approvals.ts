// Approvals from the app: one service for both sources. A managed agent's "Ask me" turn asks
// through our permission-prompt tool; an interactive Claude Code session asks through the
// channel permission relay. Each request is a stored row (a "Needs you" item) and a waiter; the
// first answer wins (the person on any screen, the time limit, or the end of the turn or session
// that asked). The answer then travels (issue 37): the asker's `deliver` hands it to the agent's
// process; only once that worked is it "delivered", and only once the agent's next call arrives
// did it "go on". An answer that could not be delivered opens the request again, saying why.
// Decisions about a managed turn go into that agent's activity log.
import type { ApprovalDecision } from '../../shared/model/approvals';
import { appErrors, DomainError } from '../domain/errors';
import {
  clearApprovalRow, closeAllPendingApprovalRows, deniedInTurn, getApprovalRow, insertApprovalRow, listShownApprovalRows, markApprovalDelivered,
  reopenApprovalRow, setApprovalOutcome, settleApprovalRow, type ApprovalRow, type ApprovalSettlement, type NewApprovalRow,
} from '../store/approvalQueries';
import { insertActivityRow } from '../store/managedAgentQueries';
import type { Storage, Tx } from '../store/port';
import { getSetting } from '../store/settingsQueries';
import { getRoom } from '../domain/rooms/rooms';
import { postSystemEvent } from '../domain/systemEvents';
import { answererText, settledText } from './approvalState';
import { cutInputRefusal, inputCut, logSummary } from './requestText';

export { settledText } from './approvalState';

export const APPROVAL_TIMEOUT_SETTING = 'approvals.timeoutMinutes';
export const DEFAULT_APPROVAL_TIMEOUT_MINUTES = 10;
/** How long a settled request stays in the queue (so every screen sees how it went), unless cleared. */
export const SETTLED_SHOWN_MS = 15 * 60_000;

/**
 * What the asking agent is told, and who settled it: the person, the time limit, or the end of
 * the turn or session that asked (a channel request is answered back only when the person did).
 */
export type ApprovalAnswer = ({ behavior: 'allow' } | { behavior: 'deny'; message: string }) & { by: 'person' | 'limit' | 'closed' | 'turn' };

/** Hands an answer to the agent's process; rejects (saying why in its message) when it could not get there. */
export type DeliverAnswer = (answer: ApprovalAnswer) => Promise<void>;

/** Who answered: the person's name, and the paired phone the answer came from (null: this computer). */
export interface Answerer {
  readonly person: string;
  readonly via: string | null;
}

/** A managed turn that may ask (its key travels in its helper's hello). */
export interface AskingTurn {
  readonly agentId: string;
  readonly turnNumber: number;
  readonly roomId: string;
  readonly sessionId: string;
  readonly agentName: string;
  /**
   * A team room's: tells the room's other machines whether the agent waits for its owner's
   * approval now (the tool and since when, never the input), so they know why it is silent.
   */
  readonly showWait?: ShowWait;
}

/** Shows that an agent waits for an approval (the newest it waits for), or for none (null). */
export type ShowWait = (wait: { tool: string; since: string } | null) => Promise<void>;

export interface ApprovalRequest extends Omit<NewApprovalRow, 'agent_id' | 'turn_number' | 'room_id'> {
  /** The room the agent is in: its item shows there. */
  readonly room_id: string;
  /** Who waits: a turn key or a connection id; closeOwner() ends what it still waits for, wentOn() marks its next call. */
  readonly owner: string;
}

interface Waiter {
  readonly owner: string;
  readonly row: Pick<ApprovalRow, 'agent_id' | 'turn_number' | 'tool' | 'source'>;
  readonly deliver: DeliverAnswer;
  readonly timer: NodeJS.Timeout;
  /** When it counts as denied (ms since the epoch). */
  readonly deadline: number;
  /** When it was asked; and its turn's showWait, if its room is a team's. */
  readonly since: string;
  readonly showWait?: ShowWait;
}

const NO_ANSWER = 'The person did not answer in time, so this was not allowed.';
/** A channel request the session went on from without us: its terminal's dialog answered it (issue 35). */
export const ANSWERED_IN_TERMINAL = 'Answered in its terminal: the session went on.';
const PERSON_DENIED = 'The person denied this';

/**
 * Why another computer (of a team) cannot answer: Allow runs the command with the rights of the
 * person whose computer runs the agent, so only that computer (and its paired phone) decides.
 */
function notHere(number: number | null): string {
  const which = number === null ? 'This approval is not' : `Approval ${number} is not`;
  return `${which} on this computer. An agent's tool use is allowed or denied only on the computer that runs it (or that computer's paired phone): Allow runs it with that person's rights there.`;
}

/**
 * The refusal of an approval this computer does not have (an unknown number, or a team room's
 * item that another computer's agent asked): `not_found`, as the app API answers for every
 * item it cannot find, whichever method was asked.
 */
export function notHereError(number: number | null): DomainError {
  return new DomainError('not_found', 'hard', notHere(number));
}

/**
 * Whether a tool's refusal is one of these answers (the person's Deny, or no answer in time):
 * the agent's log already says who decided, so its CLI's own record of the denial is not a
 * second, different story (issue 35: "outside the permissions chosen" after a person's Deny).
 */
export function isApprovalAnswer(text: string): boolean {
  return text.startsWith(PERSON_DENIED) || text === NO_ANSWER;
}

export class Approvals {
  /** Requests that wait for an answer. */
  private readonly waiters = new Map<number, Waiter>();
  /** Answers on their way (handed to the asker) or delivered, until the agent's next call: number → owner. */
  private readonly travelling = new Map<number, Waiter>();
  private readonly turns = new Map<string, AskingTurn & { allowed: Set<string> }>();
  /** The last showing of each agent's wait, so they reach its room in order: agent id → its promise. */
  private readonly showings = new Map<string, Promise<void>>();
  /** Agents whose last showing could not be written (their team offline): shown again by showOwedWaits. */
  private readonly owed = new Map<string, ShowWait>();
  readonly ready: Promise<void>;

  constructor(private readonly store: Storage) {
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

  /** Who denied a tool this managed turn asked for, the person or the time limit (why it may have said nothing). */
  deniedIn(agentId: string, turnNumber: number): Promise<'person' | 'time_limit' | null> {
    return this.store.read((q) => deniedInTurn(q, agentId, turnNumber));
  }

  /**
   * Asks the person. Every answer (theirs, the time limit's, the end of the turn or session) is
   * handed to `deliver`; a tool allowed "for this turn" is allowed at once. Resolves once the
   * request is stored (or answered at once).
   */
  async ask(request: ApprovalRequest, turnKey: string | null, deliver: DeliverAnswer): Promise<void> {
    await this.ready;
    const turn = turnKey ? this.turns.get(turnKey) : undefined;
    if (turn?.allowed.has(request.tool)) {
      await this.store.write((tx) => this.note(tx, turn.agentId, turn.turnNumber, `${request.tool} ${logSummary(request.description)} — allowed (allowed for this turn).`));
      // Not awaited: the asker hands the answer over only once this returns.
      void deliver({ behavior: 'allow', by: 'turn' }).catch(() => undefined);
      return;
    }
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
    this.waiters.set(number, { owner: request.owner, row, deliver, since: new Date().toISOString(), showWait: turn?.showWait, ...(await this.expiry(number)) });
    this.showWaitOf(row.agent_id, turn?.showWait);
  }

  /**
   * The person's answer, from this computer or a paired phone. `settled` false when something
   * answered first (nothing changes then, and the message names who); `delivered` says whether
   * it reached the agent's process (if not, the request is open again and the message says why).
   */
  async decide(number: number, decision: ApprovalDecision, note: string | null, by: Answerer): Promise<{ settled: boolean; delivered: boolean; message: string }> {
    const row = await this.store.read((q) => getApprovalRow(q, number));
    if (!row) throw notHereError(number);
    if (decision === 'allow_turn' && row.source !== 'managed_turn') decision = 'allow_once';
    // Allow runs the whole input: never one the person could not see whole.
    if (decision !== 'deny' && row.status === 'pending' && inputCut(row)) throw appErrors.invalidInput(cutInputRefusal(row));
    const status = decision === 'deny' ? 'denied' : 'allowed';
    const result = await this.settle(number, { status, decision, note: note?.trim() || null, decidedBy: by.person, decidedVia: by.via, closedReason: null });
    if (result === 'not_pending') {
      const now = await this.store.read((q) => getApprovalRow(q, number));
      return { settled: false, delivered: false, message: `Already settled: ${settledText(now ?? row)} Your answer changed nothing.` };
    }
    const done = decision === 'deny' ? `Denied ${row.tool}` : `Allowed ${row.tool}${decision === 'allow_turn' ? ' for this turn' : ''}`;
    if (result === 'delivered') return { settled: true, delivered: true, message: `${done}: ${row.agent_name} got the answer.` };
    const now = await this.store.read((q) => getApprovalRow(q, number));
    return { settled: false, delivered: false, message: `${done}, but it could not reach ${row.agent_name}: ${now?.delivery_error ?? 'its session ended'}` };
  }

  /** The person takes a request that is over off the queue; false when it still waits (deny it instead). */
  async clear(number: number): Promise<boolean> {
    return this.store.write(async (tx) => {
      const cleared = await clearApprovalRow(tx, number);
      const row = cleared ? await getApprovalRow(tx, number) : undefined;
      if (row?.room_id) tx.emit({ type: 'needsYou.changed', roomId: row.room_id });
      return cleared;
    });
  }

  /**
   * `owner` made its next call: an answer that reached it, it went on from; a channel request
   * still open here was answered in the session's own terminal (the session would not go on
   * while its dialog waits), so it closes.
   */
  async wentOn(owner: string): Promise<void> {
    for (const [number, waiter] of [...this.waiters]) {
      if (waiter.owner !== owner || waiter.row.source !== 'channel') continue;
      await this.settle(number, { status: 'closed', decision: null, note: null, decidedBy: null, closedReason: ANSWERED_IN_TERMINAL, outcome: 'went_on' });
    }
    for (const [number, waiter] of [...this.travelling]) {
      if (waiter.owner !== owner) continue;
      const row = await this.store.read((q) => getApprovalRow(q, number));
      // Still on its way: the call came before the answer (it was already in flight).
      if (!row?.delivered_at) continue;
      this.travelling.delete(number);
      await this.endWith(number, 'went_on');
    }
  }

  /** Ends what `owner` (a turn key, a connection) still waits for; a delivered answer it never went on from ends too. */
  async closeOwner(owner: string, reason: string): Promise<void> {
    for (const [number, waiter] of [...this.waiters]) {
      if (waiter.owner === owner) await this.settle(number, { status: 'closed', decision: null, note: null, decidedBy: null, closedReason: reason, outcome: 'session_ended' });
    }
    for (const [number, waiter] of [...this.travelling]) {
      if (waiter.owner !== owner) continue;
      this.travelling.delete(number);
      await this.endWith(number, 'session_ended');
    }
  }

  /** The requests the queue shows, newest first: pending ones (with when each runs out) and recently settled ones. */
  async shown(): Promise<Array<ApprovalRow & { expires_at: string | null }>> {
    await this.ready;
    const since = new Date(Date.now() - SETTLED_SHOWN_MS).toISOString();
    const rows = await this.store.read((q) => listShownApprovalRows(q, since));
    return rows.map((row) => {
      const waiter = row.status === 'pending' ? this.waiters.get(row.number) : undefined;
      return { ...row, expires_at: waiter ? new Date(waiter.deadline).toISOString() : null };
    });
  }

  close(): void {
    for (const waiter of this.waiters.values()) clearTimeout(waiter.timer);
  }

  /**
   * Settles a pending request and hands the answer to its asker. 'not_pending': something
   * settled it first. 'delivered' / 'undelivered' for the person's answer (undelivered: open
   * again); 'ended' for an answer that needs no delivery record (time limit, session ended).
   */
  private async settle(number: number, outcome: ApprovalSettlement): Promise<'not_pending' | 'delivered' | 'undelivered' | 'ended'> {
    const waiter = this.waiters.get(number);
    const byPerson = outcome.decidedBy !== null;
    const expired = !byPerson && outcome.status === 'denied';
    const settled = await this.store.write(async (tx) => {
      if (!(await settleApprovalRow(tx, number, { ...outcome, outcome: outcome.outcome ?? (expired ? 'expired' : null) }))) return false;
      const row = (await getApprovalRow(tx, number))!;
      if (row.agent_id !== null && row.turn_number !== null) await this.note(tx, row.agent_id, row.turn_number, `${row.tool} ${logSummary(row.description)}: ${settledText(row)}`);
      if (row.room_id) tx.emit({ type: 'needsYou.changed', roomId: row.room_id });
      return true;
    });
    if (!settled) return 'not_pending';
    if (!waiter) return 'ended';
    clearTimeout(waiter.timer);
    this.waiters.delete(number);
    this.showWaitOf(waiter.row.agent_id, waiter.showWait);
    if (outcome.decision === 'allow_turn') {
      for (const turn of this.turns.values()) if (turn.agentId === waiter.row.agent_id && turn.turnNumber === waiter.row.turn_number) turn.allowed.add(waiter.row.tool);
    }
    const by = byPerson ? 'person' : outcome.status === 'closed' ? 'closed' : 'limit';
    const answer: ApprovalAnswer =
      outcome.status === 'allowed'
        ? { behavior: 'allow', by }
        : { behavior: 'deny', by, message: outcome.note ? `${PERSON_DENIED}: ${outcome.note}` : outcome.closedReason ?? `${PERSON_DENIED}.` };
    if (!byPerson) {
      // The agent still hears of the time limit; nothing is recorded of its way.
      await waiter.deliver(answer).catch(() => undefined);
      return 'ended';
    }
    this.travelling.set(number, waiter);
    try {
      await waiter.deliver(answer);
    } catch (error) {
      this.travelling.delete(number);
      await this.reopen(number, waiter, error);
      return 'undelivered';
    }
    await this.store.write(async (tx) => {
      if (await markApprovalDelivered(tx, number)) await this.emitChanged(tx, number);
    });
    return 'delivered';
  }

  /** The answer did not reach the agent: the request is open again (a new time limit), saying why. */
  private async reopen(number: number, waiter: Waiter, error: unknown): Promise<void> {
    const why = error instanceof Error && error.message ? error.message : 'the agent could not be reached';
    const reopened = await this.store.write(async (tx) => {
      const row = await getApprovalRow(tx, number);
      const text = `${row ? answererText(row) : 'Your answer'} could not be delivered: ${why}. The request is still open.`;
      if (!(await reopenApprovalRow(tx, number, text))) return false;
      await this.emitChanged(tx, number);
      return true;
    });
    if (reopened) {
      this.waiters.set(number, { ...waiter, ...(await this.expiry(number)) });
      this.showWaitOf(waiter.row.agent_id, waiter.showWait);
    }
  }

  /**
   * Shows (in a team room) what the agent waits for now: its newest waiting request, or none.
   * Not awaited by the asker or the answer (a team offline must not hold either up); the
   * showings of one agent go in order, each reading the waiters as they are when it runs.
   */
  private showWaitOf(agentId: string | null, show: ShowWait | undefined): void {
    if (agentId === null || !show) return;
    const next = (this.showings.get(agentId) ?? Promise.resolve()).then(async () => {
      const newest = [...this.waiters.entries()].filter(([, w]) => w.row.agent_id === agentId).sort(([a], [b]) => b - a)[0]?.[1];
      await show(newest ? { tool: newest.row.tool, since: newest.since } : null);
      this.owed.delete(agentId);
    }).catch((error: unknown) => {
      // Kept to show again once the team can be written: a wait that ended must not stay on every roster.
      if (!this.owed.has(agentId)) console.warn(`approvals: could not show agent ${agentId}'s wait in its team room (shown again once it can be):`, error);
      this.owed.set(agentId, show);
    });
    this.showings.set(agentId, next);
    void next.then(() => {
      if (this.showings.get(agentId) === next) this.showings.delete(agentId);
    });
  }

  /**
   * Shows again the waits whose showing failed, as they are now (a team's database came back,
   * or the app's heartbeat tries again); each stays owed until a showing is written.
   */
  showOwedWaits(): void {
    for (const [agentId, show] of [...this.owed]) this.showWaitOf(agentId, show);
  }

  private async endWith(number: number, outcome: 'went_on' | 'session_ended'): Promise<void> {
    await this.store.write(async (tx) => {
      if (await setApprovalOutcome(tx, number, outcome)) await this.emitChanged(tx, number);
    });
  }

  private async emitChanged(tx: Tx, number: number): Promise<void> {
    const row = await getApprovalRow(tx, number);
    if (row?.room_id) tx.emit({ type: 'needsYou.changed', roomId: row.room_id });
  }

  /** A new time limit for a waiting request. */
  private async expiry(number: number): Promise<{ timer: NodeJS.Timeout; deadline: number }> {
    const ms = await this.timeoutMs();
    const timer = setTimeout(() => void this.settle(number, { status: 'denied', decision: 'deny', note: null, decidedBy: null, closedReason: NO_ANSWER }), ms);
    timer.unref();
    return { timer, deadline: Date.now() + ms };
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
