// Transport over the browser host's WebSocket: numbered calls answered by id, pushed
// events, and reconnection with backoff (the UI refetches when the socket opens again).
import type { ApiResult } from '../../../shared/bridge';
import type { ConnectionState, Transport } from './transport';

type Pending = { resolve: (result: ApiResult) => void };

const RETRY_MS = [250, 500, 1000, 2000, 5000];
const lost: ApiResult = { ok: false, error: { code: 'disconnected', message: 'Lost the connection to LetAgents. Reconnecting…' } };

export function createWebSocketTransport(url: string, createSocket: (url: string) => WebSocket = (u) => new WebSocket(u)): Transport & { close(): void } {
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  const eventListeners = new Set<(event: unknown) => void>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocket;
  let nextId = 1;
  let attempt = 0;
  let closed = false;

  const setState = (next: ConnectionState) => {
    state = next;
    for (const listener of [...connectionListeners]) listener(next);
  };

  const connect = () => {
    socket = createSocket(url);
    socket.onopen = () => {
      attempt = 0;
      setState('open');
      for (const frame of queue.splice(0)) socket.send(frame);
    };
    socket.onmessage = (message) => receive(String(message.data));
    socket.onclose = () => {
      // Calls in flight or queued fail now; none is replayed later behind the person's back.
      for (const call of pending.values()) call.resolve(lost);
      pending.clear();
      queue.length = 0;
      if (closed) return;
      // Refused a few times in a row: the session ended (or the app restarted, which starts
      // no old session again), so say so; it keeps trying in case the app was only busy.
      setState(attempt >= 3 ? 'closed' : 'connecting');
      setTimeout(connect, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
    };
  };

  const receive = (text: string) => {
    let frame: { id?: unknown; result?: ApiResult; event?: unknown };
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if ('event' in frame) {
      for (const listener of [...eventListeners]) listener(frame.event);
      return;
    }
    if (typeof frame.id === 'number' && frame.result) {
      pending.get(frame.id)?.resolve(frame.result);
      pending.delete(frame.id);
    }
  };

  connect();
  return {
    host: 'browser',
    invoke(method, input) {
      const id = nextId++;
      const frame = JSON.stringify({ id, method, input });
      return new Promise<ApiResult>((resolve) => {
        pending.set(id, { resolve });
        if (state === 'open') socket.send(frame);
        else queue.push(frame);
      });
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      listener(state);
      return () => connectionListeners.delete(listener);
    },
    close() {
      closed = true;
      socket.close();
    },
  };
}
