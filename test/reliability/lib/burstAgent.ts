// An agent that writes in bursts through its own helper while the app may die at any
// moment: messages, new tasks, and task moves (accept, claim, start, hand in, finish).
// Every write the app acknowledged goes into a shared ledger, so a test can prove after
// a crash that each one is stored; a lost request is only counted (it may or may not
// have happened). After an app restart the helper reconnects by itself and re-binds the agent's
// worker (issue 27); were a call to say W12, the agent would reconnect its worker.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, isPhrase, PHRASES, type Outcome } from './mcpCalls';
import { sleep, type Rng } from './random';

export interface AckedMessage {
  readonly room: string;
  readonly number: number;
  readonly text: string;
  readonly sender: string;
  /** Which app run the request was sent in: 0 before the first kill, 1 after it, … */
  readonly generation: number;
}

export interface AckedTaskChange {
  readonly room: string;
  readonly number: number;
  /** The status the write moved the task to; 'proposed' for a new task. */
  readonly to: string;
  readonly title?: string;
}

interface BoardEntry {
  status: string;
  proposer: string;
  holder: string | null;
}

/** What every agent of a run writes into, and what the test checks against the store. */
export class Ledger {
  readonly messages = new Map<string, AckedMessage>();
  readonly taskChanges: AckedTaskChange[] = [];
  readonly unexpected: string[] = [];
  /** What the agents believe each room's board looks like (from acknowledged writes). */
  readonly boards = new Map<string, Map<number, BoardEntry>>();
  generation = 0;
  lost = 0;
  reconnects = 0;
  /** Calls answered W12 (the worker is not bound to this connection, e.g. after an app restart). */
  notConnected = 0;

  recordMessage(message: AckedMessage): void {
    const key = `${message.room}#${message.number}`;
    const earlier = this.messages.get(key);
    if (earlier) this.unexpected.push(`number reused: ${key} acknowledged for "${earlier.text}" and "${message.text}"`);
    this.messages.set(key, message);
  }

  board(room: string): Map<number, BoardEntry> {
    let board = this.boards.get(room);
    if (!board) this.boards.set(room, (board = new Map()));
    return board;
  }
}

type Operation = () => Promise<void>;

export interface BurstAgentOptions {
  /** Stop by itself after this many acknowledged messages (default: run until stop()). */
  readonly messageLimit?: number;
  /** Text prefix of its messages: `<prefix>|<name>|<seq>`. */
  readonly prefix?: string;
  /** Largest burst of concurrent calls (default 4). */
  readonly maxBurst?: number;
  /** Shares of operations that add a task (default 0.12) and that move one (default 0.28). */
  readonly addTaskShare?: number;
  readonly moveTaskShare?: number;
}

export class BurstAgent {
  workerId: string | null = null;
  actorLabel = '';
  /** Acknowledged writes since the app last (re)started. */
  ackedSinceStart = 0;
  /** Acknowledged messages in all. */
  sent = 0;
  private seq = 0;
  /** Messages in flight, so a burst never overshoots the limit. */
  private pending = 0;
  private stopped = false;
  private needsRegistration = true;
  private running: Promise<void> | null = null;

  constructor(
    readonly name: string,
    readonly client: Client,
    readonly room: string,
    private readonly rng: Rng,
    private readonly ledger: Ledger,
    private readonly options: BurstAgentOptions = {},
  ) {}

  /** Starts writing; the promise settles when the agent stopped (limit reached or stop()). */
  start(): Promise<void> {
    return (this.running = this.loop());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    const limit = this.options.messageLimit ?? Infinity;
    while (!this.stopped && this.sent < limit) {
      if (this.needsRegistration) await this.register();
      else await Promise.all(Array.from({ length: this.rng.int(1, this.options.maxBurst ?? 4) }, () => this.pickOperation()()));
    }
  }

  private async register(): Promise<void> {
    const args = this.workerId
      ? { worker_id: this.workerId, room_id: this.room }
      : { registration_key: `crash-key-${this.name}-4f7a9c2e81d6b035`, room_id: this.room, display_name: this.name };
    const outcome = await callTool(this.client, 'register_agent_session', args);
    if (outcome.kind === 'ok') {
      this.workerId = String(outcome.doc.worker_id);
      this.actorLabel = (outcome.doc.agent_session as { actor_label: string }).actor_label;
      this.needsRegistration = false;
      this.ledger.reconnects++;
      return;
    }
    if (outcome.kind === 'lost') this.ledger.lost++;
    else this.ledger.unexpected.push(`${this.name} register: ${JSON.stringify(outcome)}`);
    await sleep(50);
  }

  private pickOperation(): Operation {
    if (this.sent + this.pending >= (this.options.messageLimit ?? Infinity)) return async () => undefined;
    const roll = this.rng.next();
    const add = this.options.addTaskShare ?? 0.12;
    if (roll < add) return () => this.addTask();
    if (roll < add + (this.options.moveTaskShare ?? 0.28)) {
      const move = this.taskMove();
      if (move) return move;
    }
    return () => this.sendMessage();
  }

  private async sendMessage(): Promise<void> {
    const text = `${this.options.prefix ?? 'crash'}|${this.name}|${++this.seq}`;
    const generation = this.ledger.generation;
    this.pending++;
    const outcome = await this.call('send_message', { text }).finally(() => this.pending--);
    if (outcome?.kind !== 'ok') return;
    this.sent++;
    const number = Number(String(outcome.doc.id).slice('msg_'.length));
    this.ledger.recordMessage({ room: this.room, number, text, sender: String(outcome.doc.sender), generation });
  }

  private async addTask(): Promise<void> {
    const title = `crash task ${this.name} ${++this.seq}`;
    const outcome = await this.call('add_task', { title });
    if (outcome?.kind !== 'ok') return;
    const number = taskNumber(outcome.doc);
    this.ledger.taskChanges.push({ room: this.room, number, to: 'proposed', title });
    this.ledger.board(this.room).set(number, { status: 'proposed', proposer: this.name, holder: null });
  }

  /** The next step this agent may take on some task of its room, if any. */
  private taskMove(): Operation | null {
    const candidates: Array<[number, string, string]> = [];
    for (const [number, task] of this.ledger.board(this.room)) {
      if (task.status === 'proposed' && task.proposer !== this.name) candidates.push([number, 'update_task', 'accepted']);
      else if (task.status === 'accepted') candidates.push([number, 'claim_task', 'assigned']);
      else if (task.holder === this.name && task.status === 'assigned') candidates.push([number, 'update_task', 'in_progress']);
      else if (task.holder === this.name && task.status === 'in_progress') candidates.push([number, 'complete_task', 'in_review']);
      else if (task.holder === this.name && task.status === 'in_review') candidates.push([number, 'update_task', 'done']);
    }
    if (candidates.length === 0) return null;
    const [number, tool, to] = this.rng.pick(candidates);
    return async () => {
      const args: Record<string, unknown> = { task_id: `task_${number}` };
      if (tool === 'update_task') args.status = to;
      const outcome = await this.call(tool, args);
      if (outcome?.kind !== 'ok') return;
      this.ledger.taskChanges.push({ room: this.room, number, to });
      const entry = this.ledger.board(this.room).get(number)!;
      entry.status = to;
      if (to === 'assigned') entry.holder = this.name;
    };
  }

  /** One write as this worker; null when the outcome was handled here (reconnect, race, lost). */
  private async call(tool: string, args: Record<string, unknown>): Promise<Outcome | null> {
    if (this.needsRegistration || this.stopped) return null;
    const generation = this.ledger.generation;
    const outcome = await callTool(this.client, tool, { ...args, worker_id: this.workerId });
    if (outcome.kind === 'ok') {
      // A late answer from the app run before the last kill does not count for this run.
      if (generation === this.ledger.generation) this.ackedSinceStart++;
      return outcome;
    }
    if (outcome.kind === 'lost') {
      this.ledger.lost++;
      await sleep(20);
    } else if (outcome.kind === 'hard' && isPhrase(outcome.text, PHRASES.W12)) {
      this.ledger.notConnected++;
      this.needsRegistration = true;
    } else if (!(outcome.kind === 'hard' && isPhrase(outcome.text, PHRASES.T1, PHRASES.T9, PHRASES.T10, PHRASES.T11))) {
      // Races between agents end in the task-rule errors above; anything else is a finding.
      this.ledger.unexpected.push(`${this.name} ${tool}: ${JSON.stringify(outcome).slice(0, 400)}`);
    }
    return null;
  }
}

function taskNumber(doc: Record<string, unknown>): number {
  return Number(String((doc.task as { id: string }).id).slice('task_'.length));
}
