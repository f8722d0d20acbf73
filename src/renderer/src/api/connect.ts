// Picks the bridge: Electron's window.letagents when present, else the browser host's
// WebSocket. In a browser the link carries a one-time code (#code=…): it is taken off the
// address bar at once and traded for the session cookie (HttpOnly, so this page never
// holds a secret); a reload of the tab finds the session by that cookie.
import type { LetAgentsBridge, UiSessionAnswer, UiSessionRefusal } from '../../../shared/bridge';
import { UI_SESSION_PATH, WEB_SOCKET_PATH } from '../../../shared/bridge';
import { createApiClient, type ApiClient } from './client';
import { createElectronTransport } from './electronTransport';
import { createWebSocketTransport } from './webSocketTransport';

declare global {
  interface Window {
    letagents?: LetAgentsBridge;
  }
}

/** Why a browser tab has no connection: the host's refusals, or no answer at all. */
export type NoAccessReason = UiSessionRefusal | 'unreachable';

/** Reads #code=… once and removes it from the address bar (and so from this tab's history entry). */
export function takeCodeFromLocation(location: Location, history: History): string | null {
  const code = new URLSearchParams(location.hash.replace(/^#/, '')).get('code');
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  return code || null;
}

export function socketUrl(location: Location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${WEB_SOCKET_PATH}`;
}

/** Trades the code for a session, or (without one) asks whether this browser has a session already. */
export async function startSession(fetcher: typeof fetch, code: string | null): Promise<true | NoAccessReason> {
  try {
    const response = await fetcher(UI_SESSION_PATH, code === null
      ? { method: 'GET', credentials: 'same-origin', cache: 'no-store' }
      : { method: 'POST', credentials: 'same-origin', cache: 'no-store', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
    const answer = (await response.json()) as UiSessionAnswer;
    return answer.ok ? true : answer.reason;
  } catch {
    return 'unreachable';
  }
}

/** The tab came back into view, got focus, or the network came back: a moment to try the socket again. */
export function windowWakes(win: Window): (retry: () => void) => () => void {
  return (retry) => {
    const onVisible = () => win.document.visibilityState === 'visible' && retry();
    win.addEventListener('focus', retry);
    win.addEventListener('online', retry);
    win.document.addEventListener('visibilitychange', onVisible);
    return () => {
      win.removeEventListener('focus', retry);
      win.removeEventListener('online', retry);
      win.document.removeEventListener('visibilitychange', onVisible);
    };
  };
}

/** The client for this page, or why a browser tab cannot have one. */
export async function connectApi(win: Window = window): Promise<ApiClient | NoAccessReason> {
  if (win.letagents) return createApiClient(createElectronTransport(win.letagents));
  const fetcher = win.fetch.bind(win);
  const session = await startSession(fetcher, takeCodeFromLocation(win.location, win.history));
  if (session !== true) return session;
  const checkSession = async () => {
    const verdict = await startSession(fetcher, null);
    return verdict === true ? 'ok' : verdict === 'unreachable' ? 'unreachable' : 'no_session';
  };
  return createApiClient(createWebSocketTransport(socketUrl(win.location), undefined, { checkSession, onWake: windowWakes(win) }));
}
