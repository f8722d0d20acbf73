// One accepted agent-socket connection: the handshake (5 s: hello, our challenge, the
// helper's proof), the welcome line, then JSON-RPC lines fed to an McpServer while the
// heartbeat is watched (60 s of silence closes it). A bad hello or proof is closed with no reply.
import type { Socket } from 'node:net';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { McpConnectionHandler } from '../mcp/connection';
import type { ConnectionIdSource } from './connectionIds';
import { SocketMcpTransport } from './socketTransport';
import { LineSplitter } from '../../cli/helper/lines';
import { appProof, helperProof, newNonce, sameSecret } from '../../cli/helper/handshake';
import {
  MAX_HELLO_BYTES, MAX_MESSAGE_BYTES, PING_LINE, parseHello, parseProof, type AppChallenge, type AppWelcome, type HelperHello,
} from '../../cli/helper/protocol';

export interface SocketConnectionTimings {
  /** How long a new connection may take to send its hello. */
  readonly helloTimeoutMs: number;
  /** Silence after which an open connection counts as dead (two missed heartbeats). */
  readonly silenceTimeoutMs: number;
}

export interface SocketConnectionContext {
  readonly token: string;
  readonly handler: McpConnectionHandler;
  readonly nextConnectionId: ConnectionIdSource;
  readonly timings: SocketConnectionTimings;
  /** A fresh one-time link to the browser UI for `letagents-desktop open`; null when there is none. */
  readonly uiLink?: () => string | null;
  /** Called once when the socket is gone, whatever the reason. */
  readonly onGone: () => void;
}

export function acceptAgentSocket(socket: Socket, ctx: SocketConnectionContext): void {
  const lines = new LineSplitter(MAX_HELLO_BYTES);
  // Between our challenge and the helper's proof: its hello and the nonce we sent.
  let challenged: { hello: HelperHello; nonce: string } | null = null;
  let transport: SocketMcpTransport | null = null;
  let connectionId: string | null = null;
  let silence: NodeJS.Timeout | null = null;
  const helloTimer = setTimeout(() => socket.destroy(), ctx.timings.helloTimeoutMs);

  const armSilenceTimer = () => {
    if (silence) clearTimeout(silence);
    silence = setTimeout(() => socket.destroy(), ctx.timings.silenceTimeoutMs);
  };

  const onHello = (line: string) => {
    const hello = parseHello(line);
    if (!hello) return void socket.destroy();
    const nonce = newNonce();
    challenged = { hello, nonce };
    const challenge: AppChallenge = { letagents_challenge: 1, proof: appProof(ctx.token, hello.nonce), nonce };
    socket.write(`${JSON.stringify(challenge)}\n`);
  };

  const onProof = (line: string) => {
    const { hello, nonce } = challenged!;
    const proof = parseProof(line);
    if (!proof || !sameSecret(proof.proof, helperProof(ctx.token, nonce))) return void socket.destroy();
    clearTimeout(helloTimer);
    if (hello.probe) {
      const uiUrl = hello.ui_link ? (ctx.uiLink?.() ?? null) : undefined;
      socket.end(welcomeLine({ letagents_welcome: 1, connection_id: null, ...(uiUrl !== undefined ? { ui_url: uiUrl } : {}) }));
      setTimeout(() => socket.destroy(), 1_000).unref();
      return;
    }
    const id = ctx.nextConnectionId();
    let server;
    try {
      server = ctx.handler.open({ id, transport: 'socket', cwd: hello.cwd, ideHint: hello.ide, toolProfile: hello.tools ?? 'full' });
    } catch (error) {
      console.error(`agent socket: could not open the MCP server for ${id}:`, error);
      socket.destroy();
      return;
    }
    connectionId = id;
    transport = new SocketMcpTransport(socket, (reason) => {
      if (socket.destroyed) return;
      console.warn(`agent socket: closed ${id}: ${reason}.`);
      socket.destroy();
    });
    lines.maxLineBytes = MAX_MESSAGE_BYTES;
    socket.write(welcomeLine({ letagents_welcome: 1, connection_id: id }));
    armSilenceTimer();
    server.connect(transport).catch((error: unknown) => {
      console.error(`agent socket: could not connect the MCP server for ${id}:`, error);
      socket.destroy();
    });
  };

  const onMessageLine = (line: string) => {
    if (line === PING_LINE || line.trim() === '') return;
    try {
      transport!.deliver(deserializeMessage(line));
    } catch (error) {
      transport!.reportError(error instanceof Error ? error : new Error(String(error)));
    }
  };

  socket.on('data', (chunk: Buffer) => {
    if (transport) armSilenceTimer();
    let received: string[];
    try {
      received = lines.push(chunk);
    } catch {
      socket.destroy();
      return;
    }
    for (const line of received) {
      if (socket.destroyed) return;
      if (!transport) {
        if (socket.writableEnded) return; // answered a probe: ignore the rest
        if (challenged) onProof(line);
        else onHello(line);
      } else {
        onMessageLine(line);
      }
    }
  });
  socket.on('error', () => {
    // 'close' follows; a helper that vanished is a normal event, not an app error.
  });
  socket.on('close', () => {
    clearTimeout(helloTimer);
    if (silence) clearTimeout(silence);
    if (transport) transport.handleClosed();
    if (connectionId !== null) {
      try {
        ctx.handler.closed(connectionId);
      } catch (error) {
        console.error(`agent socket: closing ${connectionId} failed:`, error);
      }
    }
    ctx.onGone();
  });
}

const welcomeLine = (welcome: AppWelcome) => `${JSON.stringify(welcome)}\n`;
