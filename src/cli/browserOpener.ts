// Opening a link in the person's browser from the command line (serve --open, `open`, and
// the browser host's "open outside the app"). Only a parsed http(s) URL is opened, and never
// through a shell: on Windows `cmd /c start` would run whatever follows a "&" in the URL,
// so the URL goes to url.dll's FileProtocolHandler as one argument instead.
import { spawn } from 'node:child_process';
import { childEnv } from '../main/childEnv';

export interface BrowserCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** The program and arguments that open `candidate`; null when it is not a plain http(s) URL. */
export function browserCommand(candidate: string, platform: NodeJS.Platform = process.platform): BrowserCommand | null {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '' || url.hostname === '') return null;
  // The parsed form has no spaces or quotes (they are percent-encoded), so it stays one argument everywhere.
  const href = url.href;
  if (/[\s"]/.test(href)) return null;
  if (platform === 'darwin') return { command: 'open', args: [href] };
  if (platform === 'win32') return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', href] };
  return { command: 'xdg-open', args: [href] };
}

/** Opens `url` in the default browser; false (with a line on stderr) when it could not. */
export function openInBrowser(url: string): boolean {
  const opener = browserCommand(url);
  if (!opener) return false;
  const failed = () => process.stderr.write(`Could not open a browser; open ${url} yourself.\n`);
  try {
    const child = spawn(opener.command, [...opener.args], { detached: true, env: childEnv(), stdio: 'ignore', shell: false, windowsHide: true });
    child.on('error', failed);
    child.unref();
    return true;
  } catch {
    failed();
    return false;
  }
}
