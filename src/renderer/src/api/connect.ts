// Picks the bridge: Electron's window.letagents when present, else the browser host's
// WebSocket. In a browser the link carries a one-time code (#code=…): it is taken off the
// address bar at once and traded for the session cookie (HttpOnly) and a page key. The
// cookie reaches every port of 127.0.0.1, so it is useless alone: the key is kept in this
// origin's localStorage (per port, shared by this app's tabs) and goes with every session
// check and socket. A reload, or an old tab after `letagents-desktop open`, finds both; a new
// link pasted into the tab is traded at once.
import type { LetAgentsBridge, UiSessionAnswer, UiSessionRefusal } from '../../../shared/bridge';
import { UI_KEY_HEADER, UI_KEY_PROTOCOL_PREFIX, UI_SESSION_PATH, UI_SOCKET_PROTOCOL, WEB_SOCKET_PATH } from '../../../shared/bridge';
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

const PAGE_KEY_ITEM = 'letagents-ui-key';

/** Where the page key lives: this origin's storage (null where there is none). */
export function pageKeyIn(storage: Storage | null): { get(): string; set(key: string): void } {
  return {
    get: () => storage?.getItem(PAGE_KEY_ITEM) ?? '',
    set: (key) => storage?.setItem(PAGE_KEY_ITEM, key),
  };
}

type PageKey = ReturnType<typeof pageKeyIn>;

/** Trades the code for a session (keeping its page key), or (without one) asks whether this browser has a session already. */
export async function startSession(fetcher: typeof fetch, code: string | null, key: PageKey = pageKeyIn(null)): Promise<true | NoAccessReason> {
  try {
    const response = await fetcher(UI_SESSION_PATH, code === null
      ? { method: 'GET', credentials: 'same-origin', cache: 'no-store', headers: { [UI_KEY_HEADER]: key.get() } }
      : { method: 'POST', credentials: 'same-origin', cache: 'no-store', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
    const answer = (await response.json()) as UiSessionAnswer;
    if (answer.ok && answer.key) key.set(answer.key);
    return answer.ok ? true : answer.reason;
  } catch {
    return 'unreachable';
  }
}

/** The page's socket: our subprotocol with the page key beside it, read afresh at every try (another tab may have a newer one). */
export function openPageSocket(url: string, key: PageKey): WebSocket {
  return new WebSocket(url, [UI_SOCKET_PROTOCOL, `${UI_KEY_PROTOCOL_PREFIX}${key.get()}`]);
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

/**
 * A new link pasted into this tab (only its #code differs, so the page does not load again,
 * issue 35): its code, taken off the address bar at once. The way back in on a box whose
 * `letagents-desktop open` can only print the link.
 */
export function pastedLinks(win: Window, onCode: (code: string) => void): () => void {
  const onHashChange = () => {
    const code = takeCodeFromLocation(win.location, win.history);
    if (code) onCode(code);
  };
  win.addEventListener('hashchange', onHashChange);
  return () => win.removeEventListener('hashchange', onHashChange);
}

/** The client for this page, or why a browser tab cannot have one. */
export async function connectApi(win: Window = window): Promise<ApiClient | NoAccessReason> {
  if (win.letagents) return createApiClient(createElectronTransport(win.letagents));
  const fetcher = win.fetch.bind(win);
  const key = pageKeyIn(storageOf(win));
  const session = await startSession(fetcher, takeCodeFromLocation(win.location, win.history), key);
  if (session !== true) return session;
  const checkSession = async () => {
    const verdict = await startSession(fetcher, null, key);
    return verdict === true ? 'ok' : verdict === 'unreachable' ? 'unreachable' : 'no_session';
  };
  // Focus and the like retry the socket; a pasted link first trades its code for a session.
  const onWake = (retry: () => void) => {
    const offWindow = windowWakes(win)(retry);
    const offLinks = pastedLinks(win, (code) => void startSession(fetcher, code, key).then(retry));
    return () => (offWindow(), offLinks());
  };
  return createApiClient(createWebSocketTransport(socketUrl(win.location), (url) => openPageSocket(url, key), { checkSession, onWake }));
}

/** The window's localStorage, or null where the browser refuses it. */
function storageOf(win: Window): Storage | null {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}
