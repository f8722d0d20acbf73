// Picks the bridge: Electron's window.letagents when present, else the browser host's
// WebSocket with the token taken from the URL fragment (#token=…), which is then removed
// from the address bar and kept for this tab only.
import type { LetAgentsBridge } from '../../../shared/bridge';
import { WEB_SOCKET_PATH } from '../../../shared/bridge';
import { createApiClient, type ApiClient } from './client';
import { createElectronTransport } from './electronTransport';
import { createWebSocketTransport } from './webSocketTransport';

const TOKEN_KEY = 'letagents.token';

declare global {
  interface Window {
    letagents?: LetAgentsBridge;
  }
}

/** Reads #token=… once, forgets it from the URL, and remembers it for reloads of this tab. */
export function takeTokenFromLocation(location: Location, history: History, storage: Storage): string | null {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const fromFragment = fragment.get('token');
  if (fromFragment) {
    storage.setItem(TOKEN_KEY, fromFragment);
    history.replaceState(null, '', location.pathname + location.search);
    return fromFragment;
  }
  return storage.getItem(TOKEN_KEY);
}

export function socketUrl(location: Location, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${WEB_SOCKET_PATH}?token=${encodeURIComponent(token)}`;
}

/** The client for this page, or null in a browser tab opened without a token. */
export function connectApi(win: Window = window): ApiClient | null {
  if (win.letagents) return createApiClient(createElectronTransport(win.letagents));
  const token = takeTokenFromLocation(win.location, win.history, win.sessionStorage);
  if (!token) return null;
  return createApiClient(createWebSocketTransport(socketUrl(win.location, token)));
}
