// The names that cross the UI ↔ core bridge, with no dependency: the preload imports
// this file alone (it cannot load zod inside the sandbox). contract.ts is checked against it.

/** The one IPC channel for calls (ipcRenderer.invoke ↔ ipcMain.handle). */
export const INVOKE_CHANNEL = 'letagents:invoke';
/** The one IPC channel for events pushed by the core (webContents.send ↔ ipcRenderer.on). */
export const EVENT_CHANNEL = 'letagents:event';
/** The browser host's WebSocket path. */
export const WEB_SOCKET_PATH = '/api/ws';
/** The browser host's session: POST {code} trades a link's one-time code for the session cookie; GET checks it. */
export const UI_SESSION_PATH = '/api/session';

/** The header a page's session check carries its page key in (the key comes in the POST answer). */
export const UI_KEY_HEADER = 'x-letagents-key';
/** The page's socket offers this subprotocol, and `key.<page key>` beside it (a browser socket sends no headers of its own). */
export const UI_SOCKET_PROTOCOL = 'letagents';
export const UI_KEY_PROTOCOL_PREFIX = 'key.';

/** Why the browser host gave the page no session (the page explains each). */
export type UiSessionRefusal =
  /** No link was used and there is no session in this browser (e.g. the app restarted). */
  | 'no_session'
  /** The link's code was already used or is older than a minute. */
  | 'used_or_expired'
  /** The link's code was used moments ago by someone: every session was ended to be safe. */
  | 'reused'
  /** A phone listener's page without a device key of a paired phone (issue 37): the pairing page. */
  | 'not_paired';

/** The answer of UI_SESSION_PATH. On the phone listener a refusal carries what the pairing page shows. */
export type UiSessionAnswer =
  /** `phone`: the page is a paired phone's, on the phone listener (issue 37). */
  | { ok: true; key?: string; phone?: true }
  | { ok: false; reason: UiSessionRefusal; message: string; pairing?: PairingFacts };

/** What the phone's pairing page shows before it has a device key: the certificate to compare. */
export interface PairingFacts {
  /** SHA-256 of the certificate this page was served with (AB:CD:…). */
  readonly fingerprint: string;
}

export const METHOD_NAMES = [
  'rooms.list', 'rooms.create', 'rooms.rename', 'rooms.archive', 'rooms.pin', 'rooms.setReplyToAll', 'rooms.markRead', 'rooms.export', 'rooms.delete',
  'messages.timeline', 'messages.thread', 'messages.send', 'messages.preview', 'messages.search', 'messages.searchAll',
  'tasks.board', 'tasks.get', 'tasks.create', 'tasks.move', 'tasks.accept', 'tasks.cancel', 'tasks.handoff',
  'tasks.releaseWork', 'tasks.releaseReview',
  'workers.list', 'workers.rename', 'workers.disconnect', 'workers.remove', 'workers.wakes',
  'agents.providers', 'agents.list', 'agents.add', 'agents.pause', 'agents.resume', 'agents.stop', 'agents.runNow',
  'agents.remove', 'agents.activity', 'agents.changes', 'agents.merge', 'agents.update', 'agents.askToRedo', 'agents.discard', 'agents.openFolder',
  'automations.list', 'automations.add', 'automations.edit', 'automations.pause', 'automations.resume', 'automations.runNow',
  'automations.remove', 'automations.runs',
  'needsYou.list', 'needsYou.answer', 'needsYou.dismiss', 'needsYou.act', 'approvals.decide',
  'delivery.receipts', 'delivery.room', 'delivery.setRoomBudget',
  'memory.list', 'memory.add', 'memory.edit', 'memory.retire',
  'auth.status', 'auth.startDeviceFlow', 'auth.poll', 'auth.cancel', 'auth.signOut',
  'setup.status', 'setup.install', 'setup.uninstall', 'setup.snippet', 'setup.firstPrompt',
  'settings.get', 'settings.set',
  'teams.list', 'teams.add', 'teams.test', 'teams.remove', 'teams.setPatterns', 'teams.setDefault',
  'phone.status', 'phone.setup', 'phone.certificate', 'phone.pair', 'phone.revoke',
  'notifications.get', 'notifications.set', 'notifications.setTarget', 'notifications.setRoom', 'notifications.test',
  'app.info', 'app.doctor', 'app.openExternal', 'app.openDataFolder',
] as const;

export type MethodName = (typeof METHOD_NAMES)[number];

export function isMethodName(value: unknown): value is MethodName {
  return typeof value === 'string' && (METHOD_NAMES as readonly string[]).includes(value);
}

/** What every call returns on both bridges. */
export type ApiResult<T = unknown> = { ok: true; value: T } | { ok: false; error: ApiErrorBody };
export interface ApiErrorBody {
  code: string;
  message: string;
}

/** What the preload exposes as window.letagents: one call function and one event feed. */
export interface LetAgentsBridge {
  readonly methods: readonly MethodName[];
  invoke(method: MethodName, input: unknown): Promise<ApiResult>;
  /** Listens to core events; returns the function that stops listening. */
  onEvent(listener: (event: unknown) => void): () => void;
}
