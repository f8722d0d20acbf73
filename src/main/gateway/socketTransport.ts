// The server side of one agent-socket connection as an MCP SDK Transport: JSON-RPC
// lines out through the socket; lines in are handed over by the socket connection
// (which has already consumed the handshake and the heartbeat pings). Past a limit
// (connectionLimits.ts) it reports why, and the connection is closed.
import type { Socket } from 'node:net';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CallsInFlight, limitReasons, MAX_UNREAD_BYTES } from './connectionLimits';

export class SocketMcpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Told when a reply (a response to a request) was written, or could not be. */
  onReplied?: (id: string | number, error: Error | null) => void;
  private started = false;
  private closed = false;
  // Messages that arrive between the welcome line and the server's start() wait here.
  private early: JSONRPCMessage[] = [];
  private readonly calls = new CallsInFlight();

  /** `overLimit` closes the connection, saying why. */
  constructor(private readonly socket: Socket, private readonly overLimit: (reason: string) => void) {}

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

  send(message: JSONRPCMessage): Promise<void> {
    const replyId = 'id' in message && ('result' in message || 'error' in message) ? message.id : undefined;
    const written = (error: Error | null) => {
      if (replyId !== undefined) this.onReplied?.(replyId, error);
    };
    if (this.closed || this.socket.destroyed) {
      const error = new Error('The agent connection is closed.');
      written(error);
      return Promise.reject(error);
    }
    this.calls.sent(message);
    return new Promise((resolve, reject) => {
      this.socket.write(serializeMessage(message), (error) => {
        written(error ?? null);
        if (error) reject(error);
        else resolve();
      });
      if (this.socket.writableLength > MAX_UNREAD_BYTES) this.pastLimit(limitReasons.unread());
    });
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
