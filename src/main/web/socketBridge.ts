// The WebSocket half of the browser host: the same contract as the Electron bridge.
// Client → {id, method, input}; server → {id, result} for each call and {event} for each
// core event. Every call goes through the one dispatcher.
import { WebSocketServer, type WebSocket } from 'ws';
import { UI_SOCKET_PROTOCOL, type ApiResult } from '../../shared/bridge';
import type { Dispatch } from '../api/dispatcher';

export type Subscribe = (listener: (event: unknown) => void) => () => void;

/** Largest call a page may send; messages are at most 256 KiB of text. */
const MAX_INCOMING_BYTES = 1024 * 1024;
/** A page that stops reading is dropped (it reconnects and refetches) rather than buffered forever. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
const HEARTBEAT_MS = 30_000;

export interface SocketBridge {
  readonly server: WebSocketServer;
  /** Closes every open page socket (their sessions ended); the bridge keeps accepting new ones. */
  closeAll(code: number, reason: string): void;
  close(): void;
}

export function createSocketBridge(dispatch: Dispatch, subscribe: Subscribe): SocketBridge {
  // The page's socket offers our protocol and its key; the answer names ours only (never echoes the key).
  const server = new WebSocketServer({
    noServer: true, maxPayload: MAX_INCOMING_BYTES, clientTracking: true,
    handleProtocols: (offered) => (offered.has(UI_SOCKET_PROTOCOL) ? UI_SOCKET_PROTOCOL : false),
  });
  server.on('connection', (socket) => attach(socket, dispatch, subscribe));
  const alive = new WeakSet<WebSocket>();
  server.on('connection', (socket) => {
    alive.add(socket);
    socket.on('pong', () => alive.add(socket));
  });
  const heartbeat = setInterval(() => {
    for (const socket of server.clients) {
      if (!alive.has(socket)) {
        socket.terminate();
        continue;
      }
      alive.delete(socket);
      socket.ping();
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const closeAll = (code: number, reason: string) => {
    for (const socket of server.clients) socket.close(code, reason);
  };
  return {
    server,
    closeAll,
    close() {
      clearInterval(heartbeat);
      closeAll(1001, 'Server shutting down');
      server.close();
    },
  };
}

function attach(socket: WebSocket, dispatch: Dispatch, subscribe: Subscribe): void {
  const send = (payload: unknown) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      socket.close(1013, 'Too far behind; reconnect.');
      return;
    }
    socket.send(JSON.stringify(payload));
  };
  const unsubscribe = subscribe((event) => send({ event }));
  socket.on('close', unsubscribe);
  socket.on('error', () => socket.terminate());
  socket.on('message', (data, isBinary) => {
    if (isBinary) return send({ id: null, result: invalid('Send calls as JSON text.') });
    const call = parseCall(data.toString());
    if (!call) return send({ id: null, result: invalid('A call is {"id", "method", "input"}.') });
    void dispatch(call.method, call.input).then((result) => send({ id: call.id, result }));
  });
}

function parseCall(text: string): { id: string | number; method: string; input: unknown } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { id, method, input } = value as Record<string, unknown>;
  if ((typeof id !== 'number' && typeof id !== 'string') || typeof method !== 'string') return null;
  return { id, method, input };
}

const invalid = (message: string): ApiResult => ({ ok: false, error: { code: 'invalid_request', message } });
