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

/** An opener still running after this long has handed the URL to a browser that keeps it in the foreground. */
const OPENER_WAIT_MS = 5_000;

/**
 * Opens `url` in the default browser and says whether that worked: the opener's exit is
 * checked (xdg-open on a machine without a browser exits non-zero). On failure the reason is
 * returned, and nothing is written: callers print the link to open by hand.
 */
export function openInBrowser(url: string): Promise<{ opened: true } | { opened: false; reason: string }> {
  const opener = browserCommand(url);
  if (!opener) return Promise.resolve({ opened: false, reason: 'it is not a plain http(s) link' });
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(opener.command, [...opener.args], { detached: true, env: childEnv(), stdio: 'ignore', shell: false, windowsHide: true });
    } catch (error) {
      return resolve({ opened: false, reason: `${opener.command} could not be started: ${(error as Error).message}` });
    }
    const timer = setTimeout(() => {
      child.unref();
      resolve({ opened: true });
    }, OPENER_WAIT_MS);
    timer.unref();
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ opened: false, reason: error.code === 'ENOENT' ? `${opener.command} is not installed` : `${opener.command} failed: ${error.message}` });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      // rundll32 exits 0 whether or not a browser took the URL; xdg-open and open report failure.
      resolve(code === 0 ? { opened: true } : { opened: false, reason: `${opener.command} ${signal ? `was stopped by ${signal}` : `exited with code ${code}`} (no browser to open it?)` });
    });
  });
}

/** What to print when a browser was not opened: the one-time link to open by hand. */
export function openByHand(url: string, reason: string): string {
  return `Could not open a browser: ${reason}.\nOpen this one-time link yourself (single use, valid 60 s):\n  ${url}\n`;
}
