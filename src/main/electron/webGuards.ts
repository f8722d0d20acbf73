// What the page may not do: navigate anywhere, open windows, embed webviews, or get a
// permission (camera, notifications, …). Links it tries to open go through the external-link rule.
import type { Session, WebContents } from 'electron';
import { isAppPage } from './appProtocol';

/** The one permission the app page needs: "Copy code" and the other copy buttons write the clipboard. */
const APP_PAGE_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export interface ContentsGuardOptions {
  /** Opens a link outside the app if the external-link rule allows it. */
  openExternal(url: string): void;
}

export function guardWebContents(contents: WebContents, options: ContentsGuardOptions): void {
  // A link with target=_blank or window.open(): never a new Electron window.
  contents.setWindowOpenHandler(({ url }) => {
    options.openExternal(url);
    return { action: 'deny' };
  });
  // A plain link click would replace the app page: stay, and offer the link to the browser instead.
  contents.on('will-navigate', (event) => {
    event.preventDefault();
    options.openExternal(event.url);
  });
  contents.on('will-frame-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Denies every permission request and check, except the clipboard write for the app page itself. */
export function guardSession(session: Session, entryUrl: string): void {
  const allowed = (permission: string, url: string | undefined) =>
    APP_PAGE_PERMISSIONS.has(permission) && url !== undefined && isAppPage(url, entryUrl);
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(allowed(permission, details.requestingUrl));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => allowed(permission, requestingOrigin));
  session.setDevicePermissionHandler(() => false);
  // No spellchecker (and so no dictionary downloads) for any page of this session either.
  session.setSpellCheckerEnabled(false);
}
