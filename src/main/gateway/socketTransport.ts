// The server side of one agent-socket connection as an MCP SDK Transport: JSON-RPC
// lines out through the socket; lines in are handed over by the socket connection
// (which has already consumed the handshake and the heartbeat pings). Past a limit
// (connectionLimits.ts) it reports why, and the connection is closed.
import type { Socket } from 'node:net';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { frameOf } from '../../shared-node/frames';
import { hopTrace } from '../../shared-node/hopTrace';
import { CallsInFlight, limitReasons, MAX_UNREAD_BYTES } from './connectionLimits';

/** The bench's per-hop timestamps (LETAGENTS_HOP_TRACE); null, and free, otherwise. */
const hops = hopTrace('app');

export class SocketMcpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private started = false;
  private closed = false;
  // Messages that arrive between the welcome line and the server's start() wait here.
  private early: JSONRPCMessage[] = [];
  private readonly calls = new CallsInFlight();
  /** A notification's write is held until the answer it precedes (or the turn's end). */
  private corked = false;

  /** `connectionId` names the connection in the bench's hop trace; `overLimit` closes it, saying why. */
  constructor(private readonly socket: Socket, private readonly connectionId: string, private readonly overLimit: (reason: string) => void) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('SocketMcpTransport already started.');
    this.started = true;
    const early = this.early;
    this.early = [];
    for (const message of early) this.onmessage?.(message);
  }

  /** Called by the connection for every JSON-RPC message the helper sent. */
  deliver(message: JSONRPCMessage): void {
    if (this.closed) return;
    if (!this.calls.received(message)) return this.pastLimit(limitReasons.inFlight());
    if (this.started) this.onmessage?.(message);
    else this.early.push(message);
  }

  /** Called by the connection for a line that is not valid JSON-RPC. */
  reportError(error: Error): void {
    this.onerror?.(error);
  }

  /**
   * Writes one frame, id first (frames.ts: the helper routes it from its first bytes). A
   * notification waits for what follows it in the same turn (a wait's log note, then its
   * result): they leave in one write, so the helper wakes once for both.
   */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.socket.destroyed) return Promise.reject(new Error('The agent connection is closed.'));
    this.calls.sent(message);
    const note = !('id' in message);
    if (note && !this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => this.release());
    }
    return new Promise((resolve, reject) => {
      const frame = frameOf(message);
      if (hops && !note) hops.mark('app.answer', `${this.connectionId}:${(message as { id: string | number }).id}`);
      this.socket.write(frame, (error) => (error ? reject(error) : resolve()));
      if (!note) this.release();
      if (this.socket.writableLength > MAX_UNREAD_BYTES) this.pastLimit(limitReasons.unread());
    });
  }

  private release(): void {
    if (!this.corked) return;
    this.corked = false;
    this.socket.uncork();
  }

  async close(): Promise<void> {
    this.socket.end();
    // A helper that does not finish its side promptly is cut off.
    setTimeout(() => this.socket.destroy(), 1_000).unref();
    this.handleClosed();
  }

  /** Closed at once, so the server drops the calls it has not started yet; then the socket goes. */
  private pastLimit(reason: string): void {
    this.handleClosed();
    this.overLimit(reason);
  }

  /** Called once the socket is gone (or by close()); idempotent. */
  handleClosed(): void {
    if (this.closed) return;
    this.closed = true;
    this.early = [];
    this.onclose?.();
  }
}
