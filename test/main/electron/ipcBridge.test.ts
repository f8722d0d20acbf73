import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNEL, INVOKE_CHANNEL, type ApiResult } from '../../../src/shared/bridge';
import { createDispatcher } from '../../../src/main/api/dispatcher';
import { APP_ENTRY_URL } from '../../../src/main/electron/appProtocol';
import { installIpcBridge } from '../../../src/main/electron/ipcBridge';
import type { ShellApi } from '../../../src/main/electron/shellApi';
import { FakeWebContents, ipcMain, resetElectronMock } from './electronMock';

vi.mock('electron', () => import('./electronMock'));

const INFO = { version: '0.1.0', host: 'electron' as const, device: null, platform: 'linux', person: { name: 'ada', source: 'os' as const } };

function setUp() {
  const calls: string[] = [];
  const listeners = new Set<(event: unknown) => void>();
  const api: ShellApi = {
    dispatch: createDispatcher({
      'app.info': () => {
        calls.push('app.info');
        return INFO;
      },
    }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const window = new FakeWebContents();
  const bridge = installIpcBridge(ipcMain as never, api, { contents: () => window as never, entryUrl: APP_ENTRY_URL });
  const topFrame = { url: APP_ENTRY_URL, parent: null };
  const invoke = (event: { sender: unknown; senderFrame: unknown }, method: unknown, input: unknown = {}) =>
    ipcMain.handlers.get(INVOKE_CHANNEL)!(event, method, input) as Promise<ApiResult>;
  return { calls, listeners, window, bridge, topFrame, invoke, emit: (event: unknown) => listeners.forEach((l) => l(event)) };
}

beforeEach(resetElectronMock);

describe('the IPC bridge', () => {
  it('installs one invoke handler and hands calls from the window to the dispatcher', async () => {
    const { window, topFrame, invoke, calls } = setUp();
    expect([...ipcMain.handlers.keys()]).toEqual([INVOKE_CHANNEL]);
    expect(await invoke({ sender: window, senderFrame: topFrame }, 'app.info')).toEqual({ ok: true, value: INFO });
    expect(calls).toEqual(['app.info']);
  });

  it('returns the dispatcher’s own answers for bad calls', async () => {
    const { window, topFrame, invoke } = setUp();
    expect(await invoke({ sender: window, senderFrame: topFrame }, 'secrets.read')).toEqual({ ok: false, error: { code: 'unknown_method', message: 'Unknown method.' } });
    expect(await invoke({ sender: window, senderFrame: topFrame }, 42)).toEqual({ ok: false, error: { code: 'unknown_method', message: 'Unknown method.' } });
    expect((await invoke({ sender: window, senderFrame: topFrame }, 'app.info', { extra: 1 })).ok).toBe(false);
    expect(await invoke({ sender: window, senderFrame: topFrame }, 'rooms.list')).toEqual({ ok: false, error: { code: 'not_available', message: 'This is not available yet.' } });
  });

  const forbidden = { ok: false, error: { code: 'forbidden', message: 'This caller may not use the app API.' } };

  it('refuses a call from any other web contents', async () => {
    const { topFrame, invoke, calls } = setUp();
    expect(await invoke({ sender: new FakeWebContents(), senderFrame: topFrame }, 'app.info')).toEqual(forbidden);
    expect(calls).toEqual([]);
  });

  it('refuses a call from a sub-frame of the window', async () => {
    const { window, topFrame, invoke, calls } = setUp();
    expect(await invoke({ sender: window, senderFrame: { url: APP_ENTRY_URL, parent: topFrame } }, 'app.info')).toEqual(forbidden);
    expect(calls).toEqual([]);
  });

  it('refuses a call whose frame is gone or shows another page', async () => {
    const { window, invoke, calls } = setUp();
    for (const senderFrame of [null, { url: 'https://evil.example/', parent: null }, { url: 'file:///index.html', parent: null }, { url: 'app://other/index.html', parent: null }]) {
      expect(await invoke({ sender: window, senderFrame }, 'app.info')).toEqual(forbidden);
    }
    expect(calls).toEqual([]);
  });

  it('refuses every call while there is no window', async () => {
    const { invoke, topFrame } = setUp();
    ipcMain.handlers.clear();
    const api: ShellApi = { dispatch: createDispatcher({}), subscribe: () => () => {} };
    installIpcBridge(ipcMain as never, api, { contents: () => null, entryUrl: APP_ENTRY_URL });
    expect(await invoke({ sender: new FakeWebContents(), senderFrame: topFrame }, 'app.info')).toEqual(forbidden);
  });

  it('pushes core events to the window on the event channel', () => {
    const { window, emit, bridge } = setUp();
    emit({ type: 'auth.changed' });
    bridge.push({ type: 'app.open', route: { view: 'needsYou' } });
    expect(window.sent).toEqual([
      { channel: EVENT_CHANNEL, payload: { type: 'auth.changed' } },
      { channel: EVENT_CHANNEL, payload: { type: 'app.open', route: { view: 'needsYou' } } },
    ]);
    window.destroyed = true;
    emit({ type: 'auth.changed' });
    expect(window.sent).toHaveLength(2);
  });

  it('stops listening and removes its handler when closed', () => {
    const { bridge, listeners } = setUp();
    bridge.close();
    expect(ipcMain.handlers.size).toBe(0);
    expect(listeners.size).toBe(0);
  });
});
