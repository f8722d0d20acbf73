// Transport over the browser host's WebSocket: numbered calls answered by id, pushed
// events, and reconnection with backoff (the UI refetches when the socket opens again).
// After a few refused tries it asks the host why (the session endpoint), and it tries again
// at once when the tab comes back into view or gets focus: after `letagents-desktop open`
// gave this browser a new session, the old tab reconnects by itself.
import type { ApiResult } from '../../../shared/bridge';
import type { ConnectionState, Transport } from './transport';

type Pending = { resolve: (result: ApiResult) => void };

const RETRY_MS = [250, 500, 1000, 2000, 5000];
/** Failed tries in a row before the tab asks the host why. */
const TRIES_BEFORE_ASKING = 3;
const lost: ApiResult = { ok: false, error: { code: 'disconnected', message: 'Lost the connection to LetAgents. Reconnecting…' } };

/** What the host says about this tab's session: fine, gone, or no answer at all. */
export type SessionCheck = () => Promise<'ok' | 'no_session' | 'unreachable'>;

export interface WebSocketTransportOptions {
  /** A paired phone's page (issue 37); default a browser on this computer. */
  host?: 'browser' | 'phone';
  checkSession?: SessionCheck;
  /** Calls `retry` when trying again now may help (the tab is visible or focused again); returns the unsubscribe. */
  onWake?: (retry: () => void) => () => void;
}

export function createWebSocketTransport(
  url: string,
  createSocket: (url: string) => WebSocket = (u) => new WebSocket(u),
  options: WebSocketTransportOptions = {},
): Transport & { close(): void } {
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  const eventListeners = new Set<(event: unknown) => void>();
  const connectionListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocket;
  let nextId = 1;
  let attempt = 0;
  let closed = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** The app closed the socket itself because it ended every session (policy close, 1008). */
  let revoked = false;

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of [...connectionListeners]) listener(next);
  };

  /** Why the socket keeps failing, once it has a few times; until then, just "reconnecting". */
  const explain = () => {
    if (attempt < TRIES_BEFORE_ASKING) return setState('connecting');
    if (!options.checkSession) return setState('unreachable');
    void options.checkSession().then((verdict) => {
      if (closed || state === 'open') return;
      // The session is fine: the socket fails for a passing reason (the app is busy).
      if (verdict === 'ok') setState('connecting');
      else setState(verdict === 'unreachable' ? 'unreachable' : revoked ? 'sessions_revoked' : 'session_ended');
    });
  };

  const connect = () => {
    retryTimer = null;
    socket = createSocket(url);
    socket.onopen = () => {
      attempt = 0;
      revoked = false;
      setState('open');
      for (const frame of queue.splice(0)) socket.send(frame);
    };
    socket.onmessage = (message) => receive(String(message.data));
    socket.onclose = (event) => {
      if (event?.code === 1008) revoked = true;
      // Calls in flight or queued fail now; none is replayed later behind the person's back.
      for (const call of pending.values()) call.resolve(lost);
      pending.clear();
      queue.length = 0;
      if (closed) return;
      explain();
      retryTimer = setTimeout(connect, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
    };
  };

  /** Waiting for the next try: try now instead. */
  const retryNow = () => {
    if (closed || state === 'open' || retryTimer === null) return;
    clearTimeout(retryTimer);
    connect();
  };
  const stopWaking = (options.onWake ?? (() => () => {}))(retryNow);

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
    host: options.host ?? 'browser',
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
      stopWaking();
      if (retryTimer) clearTimeout(retryTimer);
      socket.close();
    },
  };
}
