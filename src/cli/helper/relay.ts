// The pipe between the agent (stdin/stdout) and the app's socket. It copies MCP lines
// both ways and remembers just enough to survive an app restart: the agent's
// initialize and notifications/initialized and its worker handles (replayed on the new
// connection, the app's replies to the replay swallowed) and the requests in flight
// (answered with an error). While the app is away, calls are answered at once with an
// error that says so, instead of hanging until the agent's client gives up.
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { AppConnection } from '../../shared-node/appLink';
import { LineSplitter } from '../../shared-node/lines';
import { HEARTBEAT_INTERVAL_MS, MAX_MESSAGE_BYTES, PING_LINE } from '../../shared-node/protocol';
import { WorkerMemory } from './workerMemory';

type JsonRpcId = string | number;
interface Message {
  id?: JsonRpcId | null;
  method?: unknown;
  params?: unknown;
}

export const LOST_REQUEST_MESSAGE =
  'The connection to the LetAgents app was lost while this request was running (the app restarted or quit). ' +
  'It may or may not have taken effect: check, then retry.';

/** Notifications kept while the app is away, for the next connection (the oldest go first). */
const MAX_QUEUED_WHILE_AWAY = 1_000;

const idKey = (id: JsonRpcId) => `${typeof id}:${id}`;

function parse(line: string): Message | null {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Message) : null;
  } catch {
    return null;
  }
}

const hasId = (m: Message): m is Message & { id: JsonRpcId } => typeof m.id === 'string' || typeof m.id === 'number';

export interface RelayOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** Finds the app again after a drop; a string is the error to report. */
  readonly reconnect: (stillWanted: () => boolean) => Promise<AppConnection | string>;
  /** The error calls get while the app is away (AppLink.awayMessage says why). */
  readonly awayMessage?: () => string;
  readonly heartbeatMs?: number;
}

export class Relay {
  private socket: Socket | null = null;
  /** starting: before the first connection (lines wait); away: lost it (calls are answered with an error). */
  private phase: 'starting' | 'away' | 'replaying' | 'open' = 'starting';
  private finished = false;
  /** Agent lines waiting for a connection. */
  private readonly queue: string[] = [];
  /** Agent requests sent on the current connection and not answered yet. */
  private readonly inflight = new Map<string, JsonRpcId>();
  /** App requests to the agent on the current connection. */
  private readonly appRequests = new Set<string>();
  private initialize: { line: string; id: JsonRpcId; answered: boolean } | null = null;
  private initializedLine: string | null = null;
  private replayKey: string | null = null;
  /** Rebind calls sent on the new connection and not answered yet: request key → worker_id. */
  private readonly rebinds = new Map<string, string>();
  private replays = 0;
  private readonly workers = new WorkerMemory();
  private resolveDone!: (code: number) => void;
  /** Resolves with the exit code: 0 when the agent ends stdin, 1 when the app is lost for good. */
  readonly done = new Promise<number>((resolve) => (this.resolveDone = resolve));

  constructor(private readonly options: RelayOptions) {}

  /** Starts reading the agent at once: lines wait in the queue until a connection is attached. */
  start(): void {
    const lines = new LineSplitter(MAX_MESSAGE_BYTES);
    const { input } = this.options;
    input.on('data', (chunk: Buffer) => {
      let received: string[];
      try {
        received = lines.push(chunk);
      } catch (error) {
        return this.finish(1, `letagents-desktop mcp: ${(error as Error).message}\n`);
      }
      for (const line of received) this.fromAgent(line);
    });
    input.once('end', () => this.finish(0));
    input.once('error', () => this.finish(0));
    // The agent is gone (EPIPE): nothing left to relay.
    this.options.output.on('error', () => this.finish(0));
    const ping = setInterval(() => {
      if (this.socket) this.socket.write(`${PING_LINE}\n`);
    }, this.options.heartbeatMs ?? HEARTBEAT_INTERVAL_MS);
    ping.unref();
    void this.done.then(() => clearInterval(ping));
  }

  /** Stops with `code`, after telling the agent why (stderr). */
  finish(code: number, why?: string): void {
    if (this.finished) return;
    this.finished = true;
    if (why) process.stderr.write(why.endsWith('\n') ? why : `${why}\n`);
    this.socket?.end();
    this.socket = null;
    this.resolveDone(code);
  }

  /** Uses a fresh app connection (the first one, or one after a restart). */
  attach(connection: AppConnection): void {
    if (this.finished) return void connection.socket.destroy();
    const socket = connection.socket;
    this.socket = socket;
    const lines = new LineSplitter(MAX_MESSAGE_BYTES);
    const onData = (chunk: Buffer) => {
      let received: string[];
      try {
        received = lines.push(chunk);
      } catch {
        return void socket.destroy();
      }
      for (const line of received) if (this.socket === socket) this.fromApp(line);
    };
    socket.on('data', onData);
    socket.on('error', () => undefined);
    socket.once('close', () => this.lost(socket));
    socket.on('drain', () => this.options.input.resume());

    if (this.initialize?.answered) {
      // The agent already initialized: do it again for the new server, quietly.
      this.phase = 'replaying';
      const replayId = `letagents-helper-replay-${++this.replays}`;
      this.replayKey = idKey(replayId);
      const request = { ...(JSON.parse(this.initialize.line) as object), id: replayId };
      socket.write(`${JSON.stringify(request)}\n`);
    } else {
      this.phase = 'open';
      // The agent's initialize was cut off before its answer: send it again, answer and all.
      if (this.initialize) this.sendToApp(this.initialize.line);
      this.flush();
    }
    if (connection.leftover.length > 0) onData(connection.leftover);
  }

  private fromAgent(line: string): void {
    if (line.trim() === '') return;
    const message = parse(line);
    if (message && message.method === undefined && hasId(message)) {
      // A reply to an app request made on a connection that is gone has no one to go to.
      if (!this.appRequests.delete(idKey(message.id))) return;
    }
    if (this.phase === 'away') this.answerWhileAway(line, message);
    else if (this.phase !== 'open') this.queue.push(line);
    else this.sendToApp(line, message);
  }

  /** No app to pass the line to: a request is answered at once; a notification waits (bounded). */
  private answerWhileAway(line: string, message: Message | null): void {
    if (message && typeof message.method === 'string' && hasId(message)) {
      // The helper itself is alive: a ping is answered as such.
      if (message.method === 'ping') return this.toAgent(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
      const text = this.options.awayMessage?.() ?? 'LetAgents is not running; it will reconnect by itself.';
      return this.toAgent(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: text } }));
    }
    if (this.queue.length >= MAX_QUEUED_WHILE_AWAY) this.queue.shift();
    this.queue.push(line);
  }

  private sendToApp(line: string, message = parse(line)): void {
    if (message && typeof message.method === 'string') {
      if (hasId(message)) {
        this.inflight.set(idKey(message.id), message.id);
        this.workers.sent(idKey(message.id), message.method, message.params);
        if (message.method === 'initialize') this.initialize = { line, id: message.id, answered: false };
      } else if (message.method === 'notifications/initialized') {
        this.initializedLine = line;
      }
    }
    if (this.socket && !this.socket.write(`${line}\n`)) this.options.input.pause();
  }

  private fromApp(line: string): void {
    const message = parse(line);
    if (message && message.method === undefined && hasId(message)) {
      const key = idKey(message.id);
      if (key === this.replayKey) return this.replayAnswered();
      const rebound = this.rebinds.get(key);
      if (rebound !== undefined) return this.rebindAnswered(key, rebound, line);
      this.inflight.delete(key);
      this.workers.answered(key, line);
      if (this.initialize && key === idKey(this.initialize.id)) this.initialize.answered = true;
    } else if (message && typeof message.method === 'string' && hasId(message)) {
      this.appRequests.add(idKey(message.id));
    }
    this.toAgent(line);
  }

  private replayAnswered(): void {
    this.replayKey = null;
    if (this.initializedLine) this.socket?.write(`${this.initializedLine}\n`);
    // Bind the agent's workers again before its next call, as it would itself after W12.
    for (const args of this.workers.rebindCalls()) {
      const id = `letagents-helper-rebind-${++this.replays}`;
      this.rebinds.set(idKey(id), args.worker_id);
      const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'register_agent_session', arguments: args } };
      this.socket?.write(`${JSON.stringify(call)}\n`);
    }
    if (this.rebinds.size === 0) this.open();
  }

  private rebindAnswered(key: string, workerId: string, line: string): void {
    this.rebinds.delete(key);
    this.workers.rebindAnswered(workerId, line);
    if (this.rebinds.size === 0) this.open();
  }

  private open(): void {
    this.phase = 'open';
    this.flush();
  }

  private flush(): void {
    while (this.phase === 'open' && this.queue.length > 0) this.sendToApp(this.queue.shift()!);
  }

  private toAgent(line: string): void {
    const socket = this.socket;
    if (!this.options.output.write(`${line}\n`) && socket) {
      socket.pause();
      this.options.output.once('drain', () => socket.resume());
    }
  }

  private lost(socket: Socket): void {
    if (this.socket !== socket || this.finished) return;
    this.socket = null;
    this.phase = 'away';
    this.replayKey = null;
    this.rebinds.clear();
    this.workers.connectionLost();
    // Lines that waited for the replay get the same answer as any call now.
    for (const line of this.queue.splice(0)) this.answerWhileAway(line, parse(line));
    const resend = this.initialize && !this.initialize.answered ? idKey(this.initialize.id) : null;
    for (const [key, id] of this.inflight) {
      if (key === resend) continue;
      this.toAgent(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: LOST_REQUEST_MESSAGE } }));
    }
    this.inflight.clear();
    this.appRequests.clear();
    this.options.input.resume();
    void this.options.reconnect(() => !this.finished).then((result) => {
      if (typeof result === 'string') this.finish(1, result);
      else this.attach(result);
    });
  }
}
