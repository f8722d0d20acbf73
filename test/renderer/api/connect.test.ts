// @vitest-environment happy-dom
// How the renderer reaches the core in a browser: the one-time code from the link (taken
// off the address bar at once) traded for a session, the socket URL (no secret in it), and
// the WebSocket transport's behaviour.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageKeyIn, socketUrl, startSession, takeCodeFromLocation, connectApi } from '../../../src/renderer/src/api/connect';
import { createWebSocketTransport, type WebSocketTransportOptions } from '../../../src/renderer/src/api/webSocketTransport';
import type { ConnectionState } from '../../../src/renderer/src/api/transport';

afterEach(() => {
  vi.useRealTimers();
});

/** A stand-in for the browser host's session endpoint: records what the page sent. */
function sessionHost(answer: object) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetcher = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return { json: async () => answer } as Response;
  }) as unknown as typeof fetch;
  return { calls, fetcher };
}

describe('the one-time code from the link', () => {
  it('takes #code=… and removes it from the address bar at once', () => {
    history.replaceState(null, '', '/?x=1#code=abc123');
    expect(takeCodeFromLocation(location, history)).toBe('abc123');
    expect(location.hash).toBe('');
    expect(location.search).toBe('?x=1');
    expect(takeCodeFromLocation(location, history)).toBeNull();
  });

  it('trades the code for a session with a same-origin JSON POST, and keeps only the page key, in this origin\'s storage', async () => {
    localStorage.clear();
    const { calls, fetcher } = sessionHost({ ok: true, key: 'page-key-1' });
    const key = pageKeyIn(localStorage);
    expect(await startSession(fetcher, 'abc123', key)).toBe(true);
    expect(calls).toEqual([{ url: '/api/session', init: expect.objectContaining({ method: 'POST', credentials: 'same-origin', body: '{"code":"abc123"}' }) }]);
    expect(sessionStorage.length).toBe(0);
    expect(Object.keys(localStorage)).toEqual(['letagents-ui-key']);
    expect(key.get()).toBe('page-key-1');
    // A later check (a reload, another tab) sends the key with the cookie.
    const check = sessionHost({ ok: true });
    expect(await startSession(check.fetcher, null, key)).toBe(true);
    expect(check.calls[0].init).toMatchObject({ method: 'GET', headers: { 'x-letagents-key': 'page-key-1' } });
    localStorage.clear();
  });

  it('without a code asks whether this browser has a session (a reload), and passes on a refusal', async () => {
    const { calls, fetcher } = sessionHost({ ok: false, reason: 'no_session', message: '…' });
    expect(await startSession(fetcher, null)).toBe('no_session');
    expect(calls[0].init.method).toBe('GET');
    expect(await startSession(sessionHost({ ok: false, reason: 'used_or_expired', message: '…' }).fetcher, 'old')).toBe('used_or_expired');
    const failing = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    expect(await startSession(failing, 'x')).toBe('unreachable');
  });

  it('without a session there is no client (the page explains instead)', async () => {
    history.replaceState(null, '', '/');
    const win = { location, history, fetch: sessionHost({ ok: false, reason: 'no_session', message: '…' }).fetcher } as unknown as Window;
    expect(await connectApi(win)).toBe('no_session');
  });

  it('builds the socket URL on the same host, with no secret in it', () => {
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:4312' } as Location)).toBe('ws://127.0.0.1:4312/api/ws');
  });
});

class FakeSocket {
  static all: FakeSocket[] = [];
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor() {
    FakeSocket.all.push(this);
  }
  send(frame: string) {
    this.sent.push(frame);
  }
  close() {
    this.onclose?.();
  }
}

function transport(options: WebSocketTransportOptions = {}) {
  FakeSocket.all = [];
  const t = createWebSocketTransport('ws://x/api/ws', () => new FakeSocket() as unknown as WebSocket, options);
  const states: ConnectionState[] = [];
  t.onConnection((s) => states.push(s));
  return { t, states, socket: () => FakeSocket.all[FakeSocket.all.length - 1] };
}

describe('WebSocket transport', () => {
  it('queues calls until the socket opens and matches answers by id', async () => {
    const { t, socket } = transport();
    const answer = t.invoke('rooms.list', {});
    expect(socket().sent).toEqual([]);
    socket().onopen!();
    const frame = JSON.parse(socket().sent[0]);
    expect(frame).toEqual({ id: 1, method: 'rooms.list', input: {} });
    socket().onmessage!({ data: JSON.stringify({ id: 1, result: { ok: true, value: [] } }) });
    expect(await answer).toEqual({ ok: true, value: [] });
  });

  it('delivers pushed events', () => {
    const { t, socket } = transport();
    const seen: unknown[] = [];
    t.onEvent((e) => seen.push(e));
    socket().onopen!();
    socket().onmessage!({ data: JSON.stringify({ event: { type: 'auth.changed' } }) });
    expect(seen).toEqual([{ type: 'auth.changed' }]);
  });

  it('a dropped socket fails calls in flight (never replays them) and reconnects', async () => {
    vi.useFakeTimers();
    const { t, states, socket } = transport();
    socket().onopen!();
    const answer = t.invoke('messages.send', { roomId: 'r', text: 'hi' });
    socket().close();
    expect(await answer).toEqual({ ok: false, error: { code: 'disconnected', message: 'Lost the connection to LetAgents. Reconnecting…' } });
    expect(states).toEqual(['connecting', 'open', 'connecting']);
    vi.advanceTimersByTime(300);
    expect(FakeSocket.all).toHaveLength(2);
    socket().onopen!();
    expect(socket().sent).toEqual([]);
    expect(states.at(-1)).toBe('open');
  });

  it('after a few refused tries it asks the host why: the session is gone, or nothing answers', async () => {
    vi.useFakeTimers();
    for (const [verdict, said] of [['no_session', 'session_ended'], ['unreachable', 'unreachable'], ['ok', 'connecting']] as const) {
      const asked: string[] = [];
      const { states, socket } = transport({ checkSession: async () => (asked.push(verdict), verdict) });
      socket().onopen!();
      for (let i = 0; i < 4; i++) {
        socket().close();
        await vi.advanceTimersByTimeAsync(5000);
      }
      expect(asked.length).toBeGreaterThan(0);
      expect(states.at(-1)).toBe(said);
      // It never stops trying: once the session is back, the socket opens.
      socket().onopen!();
      expect(states.at(-1)).toBe('open');
    }
  });

  it('tries again at once when the tab is visible or focused again, not only on its timer', () => {
    vi.useFakeTimers();
    let wake = () => {};
    const { states, socket } = transport({ onWake: (retry) => ((wake = retry), () => {}) });
    socket().onopen!();
    socket().close();
    expect(FakeSocket.all).toHaveLength(1);
    wake();
    expect(FakeSocket.all).toHaveLength(2);
    wake(); // a try is under way: no second socket
    expect(FakeSocket.all).toHaveLength(2);
    socket().onopen!();
    expect(states.at(-1)).toBe('open');
  });
});
