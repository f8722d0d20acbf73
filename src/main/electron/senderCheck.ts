// Who may call the app API over IPC: the main window's own top frame, showing the app page.
// Anything else (another window, an iframe, a page that navigated away) is refused.
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { isAppPage } from './appProtocol';

export interface TrustedPage {
  /** The main window's contents, or null while there is no window. */
  contents(): WebContents | null;
  /** The URL the window loads (app://letagents/index.html, or the dev server's). */
  readonly entryUrl: string;
}

export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, page: TrustedPage): boolean {
  const contents = page.contents();
  if (contents === null || event.sender !== contents) return false;
  const frame = event.senderFrame;
  // The frame is null once it navigated away or was destroyed.
  if (!frame || frame.parent !== null) return false;
  return isAppPage(frame.url, page.entryUrl);
}
