// The pipe between the agent (stdin/stdout) and the app's socket. It passes MCP frames
// both ways as the bytes they are (issue 38: never parsed and written again; what came in
// one chunk goes out in one write) and remembers just enough to survive an app restart:
// the agent's initialize and notifications/initialized and its worker handles (replayed on
// the new connection, the app's replies to the replay swallowed) and the requests in
// flight (answered with an error). An agent's frame is parsed for that; an app's frame is
// read from its first bytes (shared-node/frames.ts). While the app is away, calls are
// answered at once with an error that says so, instead of hanging until the agent's
// client gives up; a wait_for_messages call waits instead (heldWaits.ts).
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import type { AppConnection } from '../../shared-node/appLink';
import { peekFrameHead, type FrameHead } from '../../shared-node/frames';
import { hopTrace } from '../../shared-node/hopTrace';
import { FrameSplitter, lineOf } from '../../shared-node/lines';
import { HEARTBEAT_INTERVAL_MS, MAX_MESSAGE_BYTES, PING_LINE } from '../../shared-node/protocol';
import { HeldWaits, idKey, type JsonRpcId } from './heldWaits';
import { WorkerMemory } from './workerMemory';

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

/** The bench's per-hop timestamps (LETAGENTS_HOP_TRACE); null, and free, otherwise. */
const hops = hopTrace('helper');

/** A frame's message, or null when it is not a JSON object (it is passed on all the same). */
function parse(frame: Buffer | string): Message | null {
  try {
    const value = JSON.parse(typeof frame === 'string' ? frame : frame.toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Message) : null;
  } catch {
    return null;
  }
}

const hasId = (m: Message): m is Message & { id: JsonRpcId } => typeof m.id === 'string' || typeof m.id === 'number';

/** A frame's head: read from its first bytes when the app laid it out so, else from the parsed message. */
function headOf(frame: Buffer): FrameHead | null {
  const peeked = peekFrameHead(frame);
  if (peeked) return peeked;
  const message = parse(frame);
  if (!message) return null;
  const id = hasId(message) ? message.id : null;
  if (typeof message.method === 'string') return { id, kind: id === null ? 'notification' : 'request' };
  return id === null ? null : { id, kind: 'response' };
}

/** A frame of nothing but white space (skipped, as before). */
const isBlank = (frame: Buffer) => frame.length <= 2 && lineOf(frame).trim() === '';

export interface RelayOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** Finds the app again after a drop; a string is the error to report. */
  readonly reconnect: (stillWanted: () => boolean) => Promise<AppConnection | string>;
  /** The error calls get while the app is away (AppLink.awayMessage says why). */
  readonly awayMessage?: () => string;
  readonly heartbeatMs?: number;
  /** How often a held wait_for_messages sends progress (default 10 s, as the app's). */
  readonly waitProgressMs?: number;
}

export class Relay {
  private socket: Socket | null = null;
  /** starting: before the first connection (lines wait); away: lost it (calls are answered with an error). */
  private phase: 'starting' | 'away' | 'replaying' | 'open' = 'starting';
  private finished = false;
  /** Agent frames waiting for a connection. */
  private readonly queue: Buffer[] = [];
  /** Agent requests sent on the current connection and not answered yet. */
  private readonly inflight = new Map<string, JsonRpcId>();
  /** App requests to the agent on the current connection. */
  private readonly appRequests = new Set<string>();
  private initialize: { frame: Buffer; id: JsonRpcId; answered: boolean } | null = null;
  private initializedFrame: Buffer | null = null;
  private replayKey: string | null = null;
  /** Rebind calls sent on the new connection and not answered yet: request key → worker_id. */
  private readonly rebinds = new Map<string, string>();
  private replays = 0;
  private readonly workers = new WorkerMemory();
  private readonly held: HeldWaits;
  private resolveDone!: (code: number) => void;
  /** Resolves with the exit code: 0 when the agent ends stdin, 1 when the app is lost for good. */
  readonly done = new Promise<number>((resolve) => (this.resolveDone = resolve));

  constructor(private readonly options: RelayOptions) {
    this.held = new HeldWaits((line) => this.toAgent(line), () => this.awayMessage(), options.waitProgressMs);
  }

  /** Starts reading the agent at once: frames wait in the queue until a connection is attached. */
  start(): void {
    const frames = new FrameSplitter(MAX_MESSAGE_BYTES);
    const { input } = this.options;
    input.on('data', (chunk: Buffer) => {
      let received: Buffer[];
      try {
        received = frames.push(chunk);
      } catch (error) {
        return this.finish(1, `letagents-desktop mcp: ${(error as Error).message}\n`);
      }
      inOneWrite(this.socket, () => {
        for (const frame of received) this.fromAgent(frame);
        if (hops) for (const frame of received) traced(frame, 'helper.app_out');
      });
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
    this.held.clear();
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
    const frames = new FrameSplitter(MAX_MESSAGE_BYTES);
    const onData = (chunk: Buffer) => {
      let received: Buffer[];
      try {
        received = frames.push(chunk);
      } catch {
        return void socket.destroy();
      }
      inOneWrite(this.options.output, () => {
        for (const frame of received) if (this.socket === socket) this.fromApp(frame);
        if (hops) for (const frame of received) traced(frame, 'helper.agent_out');
      });
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
      const request = { ...(parse(this.initialize.frame) as object), id: replayId };
      socket.write(`${JSON.stringify(request)}\n`);
    } else {
      // The agent's initialize was cut off before its answer: send it again, answer and all.
      if (this.initialize) this.sendToApp(this.initialize.frame);
      this.open();
    }
    if (connection.leftover.length > 0) onData(connection.leftover);
  }

  private fromAgent(frame: Buffer): void {
    if (isBlank(frame)) return;
    const message = parse(frame);
    if (hops && message && hasId(message)) hops.mark('helper.agent_in', message.id);
    if (message && message.method === undefined && hasId(message)) {
      // A reply to an app request made on a connection that is gone has no one to go to.
      if (!this.appRequests.delete(idKey(message.id))) return;
    }
    // A cancelled wait the helper holds goes no further (the app never saw it).
    if (message && this.held.cancel(message)) return;
    if (this.phase === 'away') this.answerWhileAway(frame, message);
    else if (this.phase !== 'open') this.queue.push(frame);
    else this.sendToApp(frame, message);
  }

  /** No app to pass the frame to: a request is answered at once; a notification waits (bounded). */
  private answerWhileAway(frame: Buffer, message: Message | null): void {
    if (message && typeof message.method === 'string' && hasId(message)) {
      // The helper itself is alive: a ping is answered as such.
      if (message.method === 'ping') return this.toAgent(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
      if (this.held.hold(message)) return;
      return this.toAgent(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: this.awayMessage() } }));
    }
    if (this.queue.length >= MAX_QUEUED_WHILE_AWAY) this.queue.shift();
    this.queue.push(frame);
  }

  private awayMessage(): string {
    return this.options.awayMessage?.() ?? 'LetAgents is not running; it will reconnect by itself.';
  }

  private sendToApp(frame: Buffer, message = parse(frame)): void {
    if (message && typeof message.method === 'string') {
      if (hasId(message)) {
        this.inflight.set(idKey(message.id), message.id);
        this.workers.sent(idKey(message.id), message.method, message.params);
        if (message.method === 'initialize') this.initialize = { frame, id: message.id, answered: false };
      } else if (message.method === 'notifications/initialized') {
        this.initializedFrame = frame;
      }
    }
    if (this.socket && !this.socket.write(frame)) this.options.input.pause();
  }

  private fromApp(frame: Buffer): void {
    const head = headOf(frame);
    if (hops && head?.id != null) hops.mark('helper.app_in', head.id);
    if (head?.kind === 'response' && head.id !== null) {
      const key = idKey(head.id);
      if (key === this.replayKey) return this.replayAnswered();
      const rebound = this.rebinds.get(key);
      if (rebound !== undefined) return this.rebindAnswered(key, rebound, frame);
      this.inflight.delete(key);
      this.workers.answered(key, frame);
      if (this.initialize && key === idKey(this.initialize.id)) this.initialize.answered = true;
    } else if (head?.kind === 'request' && head.id !== null) {
      this.appRequests.add(idKey(head.id));
    }
    this.toAgent(frame);
  }

  private replayAnswered(): void {
    this.replayKey = null;
    if (this.initializedFrame) this.socket?.write(this.initializedFrame);
    // Bind the agent's workers again before its next call, as it would itself after W12.
    for (const args of this.workers.rebindCalls()) {
      const id = `letagents-helper-rebind-${++this.replays}`;
      this.rebinds.set(idKey(id), args.worker_id);
      const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'register_agent_session', arguments: args } };
      this.socket?.write(`${JSON.stringify(call)}\n`);
    }
    if (this.rebinds.size === 0) this.open();
  }

  private rebindAnswered(key: string, workerId: string, frame: Buffer): void {
    this.rebinds.delete(key);
    this.workers.rebindAnswered(workerId, frame);
    if (this.rebinds.size === 0) this.open();
  }

  private open(): void {
    this.phase = 'open';
    // Waits held while the app was away go first: the agent made them before anything queued.
    for (const line of this.held.release()) this.sendToApp(Buffer.from(`${line}\n`));
    this.flush();
  }

  private flush(): void {
    while (this.phase === 'open' && this.queue.length > 0) this.sendToApp(this.queue.shift()!);
  }

  /** Passes a frame (as it came) or a line of the helper's own (a JSON text) to the agent. */
  private toAgent(frame: Buffer | string): void {
    const socket = this.socket;
    if (!this.options.output.write(typeof frame === 'string' ? `${frame}\n` : frame) && socket) {
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
    for (const frame of this.queue.splice(0)) this.answerWhileAway(frame, parse(frame));
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

/** Runs `fn` with `stream`'s writes held, then sends them in one write (one syscall for the frames of one chunk). */
function inOneWrite(stream: Writable | null, fn: () => void): void {
  if (!stream) return fn();
  stream.cork();
  try {
    fn();
  } finally {
    stream.uncork();
  }
}

/** Notes a frame with an id (a request or an answer) at `hop` (just before its write leaves), when tracing. */
function traced(frame: Buffer, hop: string): void {
  const id = headOf(frame)?.id;
  if (id != null) hops?.mark(hop, id);
}
