// Opens a link outside the app only through the safe external-link rule (https: only).
// Electron opens it with the system browser; the browser host opens a new tab without opener.
import { safeExternalUrl } from '../../../shared/externalLinks';
import type { ApiClient } from '../api/client';

export async function openExternal(api: ApiClient, candidate: string): Promise<boolean> {
  const url = safeExternalUrl(candidate);
  if (!url) return false;
  try {
    const { opened } = await api.call('app.openExternal', { url });
    if (opened) return true;
  } catch {
    // fall through: the host could not open it; a browser tab can
  }
  if (api.host === 'browser') {
    window.open(url, '_blank', 'noopener,noreferrer');
    return true;
  }
  return false;
}
