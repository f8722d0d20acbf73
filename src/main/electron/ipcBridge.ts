// The Electron side of the UI ↔ core bridge: ONE invoke channel that hands every call to
// the app API dispatcher (after the sender check), and ONE event channel to the window.
import type { IpcMain, WebContents } from 'electron';
import { EVENT_CHANNEL, INVOKE_CHANNEL, type ApiResult } from '../../shared/bridge';
import type { ShellApi } from './shellApi';
import { isTrustedSender, type TrustedPage } from './senderCheck';

const REFUSED: ApiResult = { ok: false, error: { code: 'forbidden', message: 'This caller may not use the app API.' } };

export interface IpcBridge {
  /** Sends a message the renderer listens to on the event channel (core events, "open this"). */
  push(payload: unknown): void;
  close(): void;
}

export function installIpcBridge(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, api: ShellApi, page: TrustedPage): IpcBridge {
  ipcMain.handle(INVOKE_CHANNEL, async (event, method: unknown, input: unknown): Promise<ApiResult> => {
    if (!isTrustedSender(event, page)) return REFUSED;
    return api.dispatch(typeof method === 'string' ? method : '', input);
  });
  const push = (payload: unknown) => {
    const contents: WebContents | null = page.contents();
    if (contents && !contents.isDestroyed()) contents.send(EVENT_CHANNEL, payload);
  };
  const unsubscribe = api.subscribe(push);
  return {
    push,
    close() {
      unsubscribe();
      ipcMain.removeHandler(INVOKE_CHANNEL);
    },
  };
}
