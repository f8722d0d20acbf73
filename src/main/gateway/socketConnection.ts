// One accepted agent-socket connection: waits for the hello (5 s), checks its token,
// answers with the welcome line, then feeds JSON-RPC lines to an McpServer and watches
// the heartbeat (60 s of silence closes it). A bad hello is closed with no reply.
import type { Socket } from 'node:net';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { McpConnectionHandler } from '../mcp/connection';
import { tokensEqual } from './agentToken';
import type { ConnectionIdSource } from './connectionIds';
import { SocketMcpTransport } from './socketTransport';
import { LineSplitter } from '../../cli/helper/lines';
import { MAX_HELLO_BYTES, MAX_MESSAGE_BYTES, PING_LINE, parseHello, type AppWelcome } from '../../cli/helper/protocol';

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
  /** Called once when the socket is gone, whatever the reason. */
  readonly onGone: () => void;
  /** Answers a command-line API call (a hello with `api`); absent: such calls are refused. */
  readonly apiCall?: (method: string, input: unknown) => Promise<unknown>;
}

export function acceptAgentSocket(socket: Socket, ctx: SocketConnectionContext): void {
  const lines = new LineSplitter(MAX_HELLO_BYTES);
  let transport: SocketMcpTransport | null = null;
  let connectionId: string | null = null;
  let silence: NodeJS.Timeout | null = null;
  let apiCallPending = false;
  const helloTimer = setTimeout(() => socket.destroy(), ctx.timings.helloTimeoutMs);

  const armSilenceTimer = () => {
    if (silence) clearTimeout(silence);
    silence = setTimeout(() => socket.destroy(), ctx.timings.silenceTimeoutMs);
  };

  const onHello = (line: string) => {
    clearTimeout(helloTimer);
    const hello = parseHello(line);
    if (!hello || !tokensEqual(hello.token, ctx.token)) {
      socket.destroy();
      return;
    }
    if (hello.api) {
      const { method, input } = hello.api;
      const call = ctx.apiCall?.(method, input) ?? Promise.resolve({ ok: false, error: { code: 'not_available', message: 'This app takes no command-line calls.' } });
      apiCallPending = true;
      void call.then((result) => !socket.destroyed && socket.end(welcomeLine({ letagents_welcome: 1, connection_id: null, api_result: result })));
      return;
    }
    if (hello.probe) {
      socket.end(welcomeLine({ letagents_welcome: 1, connection_id: null }));
      setTimeout(() => socket.destroy(), 1_000).unref();
      return;
    }
    const id = ctx.nextConnectionId();
    let server;
    try {
      server = ctx.handler.open({ id, transport: 'socket', cwd: hello.cwd, ideHint: hello.ide });
    } catch (error) {
      console.error(`agent socket: could not open the MCP server for ${id}:`, error);
      socket.destroy();
      return;
    }
    connectionId = id;
    transport = new SocketMcpTransport(socket);
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
        if (socket.writableEnded || apiCallPending) return; // a probe or an API call: ignore the rest
        onHello(line);
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
