// Opening links outside the app: only what the shared rule (src/shared/externalLinks.ts)
// accepts, i.e. a parsed https: URL without credentials. The GitHub verification page
// (https://github.com/login/device) passes that rule like any https page.
import type { Shell } from 'electron';
import { safeExternalUrl } from '../../shared/externalLinks';

/** Opens `candidate` in the system browser when the rule allows it; says whether it did. */
export async function openExternalSafely(shell: Pick<Shell, 'openExternal'>, candidate: unknown): Promise<boolean> {
  if (typeof candidate !== 'string') return false;
  const url = safeExternalUrl(candidate);
  if (url === null) return false;
  try {
    // activate: the browser comes to the front, as after any click on a link.
    await shell.openExternal(url, { activate: true });
    return true;
  } catch {
    return false;
  }
}
