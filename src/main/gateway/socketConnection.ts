// One accepted agent-socket connection: the handshake (5 s: hello, our challenge, the
// helper's proof), the welcome line, then JSON-RPC lines fed to an McpServer while the
// heartbeat is watched (60 s of silence closes it). A bad hello or proof is closed with no reply.
// A probe ends at the welcome: with a UI link, or the result of the API call its proof carried.
import type { Socket } from 'node:net';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { McpConnectionHandler } from '../mcp/connection';
import type { ConnectionIdSource } from './connectionIds';
import { SocketMcpTransport } from './socketTransport';
import { LineSplitter } from '../../shared-node/lines';
import { appProof, helperProof, newNonce, sameSecret } from '../../shared-node/handshake';
import { hopTrace } from '../../shared-node/hopTrace';
import {
  MAX_HELLO_BYTES, MAX_MESSAGE_BYTES, MAX_PROBE_PROOF_BYTES, PING_LINE, parseHello, parseProof,
  type AppChallenge, type AppWelcome, type HelperHello, type HelperProof,
} from '../../shared-node/protocol';

export interface SocketConnectionTimings {
  /** How long a new connection may take to send its hello. */
  readonly helloTimeoutMs: number;
  /** Silence after which an open connection counts as dead (two missed heartbeats). */
  readonly silenceTimeoutMs: number;
}

/** Answers one command-line API call with {ok:true,value} or {ok:false,error}. */
export type ApiCallHandler = (method: string, input: unknown) => Promise<unknown>;

export interface SocketConnectionContext {
  readonly token: string;
  readonly handler: McpConnectionHandler;
  readonly nextConnectionId: ConnectionIdSource;
  readonly timings: SocketConnectionTimings;
  /** A fresh one-time link to the browser UI for `letagents-desktop open`; null when there is none. */
  readonly uiLink?: () => string | null;
  /** Answers a command-line API call (a probe's proof with `api`); absent: such calls are refused. */
  readonly apiCall?: ApiCallHandler;
  /** Called once when the socket is gone, whatever the reason. */
  readonly onGone: () => void;
}

/** The bench's per-hop timestamps (LETAGENTS_HOP_TRACE); null, and free, otherwise. */
const hops = hopTrace('app');

export function acceptAgentSocket(socket: Socket, ctx: SocketConnectionContext): void {
  const lines = new LineSplitter(MAX_HELLO_BYTES);
  // Between our challenge and the helper's proof: its hello and the nonce we sent.
  let challenged: { hello: HelperHello; nonce: string } | null = null;
  let transport: SocketMcpTransport | null = null;
  let connectionId: string | null = null;
  let silence: NodeJS.Timeout | null = null;
  // A probe is being answered (an API call may take a moment): later lines are ignored.
  let answering = false;
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
    // A probe's proof may carry an API call (managed-agent instructions run to 20,000 characters).
    if (hello.probe) lines.maxLineBytes = MAX_PROBE_PROOF_BYTES;
    const challenge: AppChallenge = { letagents_challenge: 1, proof: appProof(ctx.token, hello.nonce), nonce };
    socket.write(`${JSON.stringify(challenge)}\n`);
  };

  const onProof = (line: string) => {
    const { hello, nonce } = challenged!;
    const proof = parseProof(line);
    // An API call belongs to a probe only: an MCP connection's proof carries none.
    if (!proof || !sameSecret(proof.proof, helperProof(ctx.token, nonce)) || (proof.api && !hello.probe)) return void socket.destroy();
    clearTimeout(helloTimer);
    if (hello.probe) return void answerProbe(hello, proof);
    const id = ctx.nextConnectionId();
    let server;
    try {
      server = ctx.handler.open({ id, transport: 'socket', cwd: hello.cwd, ideHint: hello.ide, toolProfile: hello.tools ?? 'full', turnKey: hello.turn_key ?? null, channelFlag: hello.channel_flag ?? null, helperPid: hello.pid });
    } catch (error) {
      console.error(`agent socket: could not open the MCP server for ${id}:`, error);
      socket.destroy();
      return;
    }
    connectionId = id;
    // The bench ties this connection to its helper's process (the hello's pid) by this mark.
    hops?.mark('app.hello', `${id}:${hello.pid}`);
    transport = new SocketMcpTransport(socket, id, (reason) => {
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

  const answerProbe = async (hello: HelperHello, proof: HelperProof) => {
    answering = true;
    const uiUrl = hello.ui_link ? (ctx.uiLink?.() ?? null) : undefined;
    const apiResult = proof.api ? await callApi(proof.api.method, proof.api.input) : undefined;
    if (socket.destroyed) return;
    socket.end(welcomeLine({
      letagents_welcome: 1, connection_id: null,
      ...(uiUrl !== undefined ? { ui_url: uiUrl } : {}),
      ...(apiResult !== undefined ? { api_result: apiResult } : {}),
    }));
    setTimeout(() => socket.destroy(), 1_000).unref();
  };

  const callApi = async (method: string, input: unknown): Promise<unknown> => {
    if (!ctx.apiCall) return { ok: false, error: { code: 'not_available', message: 'This app takes no command-line calls.' } };
    try {
      return await ctx.apiCall(method, input);
    } catch (error) {
      console.error(`agent socket: the command-line call ${method} failed:`, error);
      return { ok: false, error: { code: 'internal', message: `${method} failed inside the app; see its log.` } };
    }
  };

  const onMessageLine = (line: string) => {
    if (line === PING_LINE || line.trim() === '') return;
    try {
      const message = deserializeMessage(line);
      if (hops && 'id' in message) hops.mark('app.read', `${connectionId}:${message.id}`);
      transport!.deliver(message);
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
        if (answering) return; // a probe: ignore the rest
        if (challenged) onProof(line);
        else onHello(line);
      } else {
        onMessageLine(line);
      }
    }
  });
  // The helper went (its end, or EPIPE/ECONNRESET): nothing more is sent to it; 'close'
  // follows, and a helper that vanished is a normal event, not an app error.
  socket.on('end', () => transport?.handleClosed());
  socket.on('error', () => transport?.handleClosed());
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
