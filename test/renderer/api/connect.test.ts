// @vitest-environment happy-dom
// How the renderer reaches the core in a browser: the token from the URL fragment (then
// removed from the address bar), the socket URL, and the WebSocket transport's behaviour.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { socketUrl, takeTokenFromLocation, connectApi } from '../../../src/renderer/src/api/connect';
import { createWebSocketTransport } from '../../../src/renderer/src/api/webSocketTransport';
import type { ConnectionState } from '../../../src/renderer/src/api/transport';

afterEach(() => {
  sessionStorage.clear();
  vi.useRealTimers();
});

describe('access token from the link', () => {
  it('takes #token=… and removes it from the address bar, keeping it for reloads of this tab', () => {
    history.replaceState(null, '', '/?x=1#token=abc123');
    expect(takeTokenFromLocation(location, history, sessionStorage)).toBe('abc123');
    expect(location.hash).toBe('');
    expect(location.search).toBe('?x=1');
    expect(takeTokenFromLocation(location, history, sessionStorage)).toBe('abc123');
  });

  it('without a token there is no client (the page explains instead)', () => {
    history.replaceState(null, '', '/');
    expect(connectApi(window)).toBeNull();
  });

  it('builds the socket URL on the same host with the token as a query parameter', () => {
    expect(socketUrl({ protocol: 'http:', host: '127.0.0.1:4312' } as Location, 'a b')).toBe('ws://127.0.0.1:4312/api/ws?token=a%20b');
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

function transport() {
  FakeSocket.all = [];
  const t = createWebSocketTransport('ws://x/api/ws?token=t', () => new FakeSocket() as unknown as WebSocket);
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

  it('after several failed first attempts it says the link is stale', () => {
    vi.useFakeTimers();
    const { states, socket } = transport();
    for (let i = 0; i < 4; i++) {
      socket().close();
      vi.advanceTimersByTime(5000);
    }
    expect(states).toContain('closed');
  });
});
