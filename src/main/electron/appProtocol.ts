// The app:// protocol: serves the built renderer (out/renderer) to the window with a strict
// Content-Security-Policy, so the page never runs from file:// and gets a real origin.
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Protocol } from 'electron';
import { PAGE_CONTENT_TYPES, findServedFile } from '../web/staticFiles';
import { PAGE_CSP } from '../web/securityHeaders';

export const APP_SCHEME = 'app';
export const APP_HOST = 'letagents';
/** The page the window loads in a built app. */
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** Must run before app 'ready': a standard, secure scheme gets an origin, so CSP 'self' means app://letagents. */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  ]);
}

/** Answers app:// requests from `rendererDir` (on the session the window uses). */
export function installAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  const root = realpathSync(rendererDir);
  protocol.handle(APP_SCHEME, (request) => answerAppRequest(root, request.method, request.url));
}

/**
 * One app:// request: our host, GET/HEAD, a file inside `root` (a real path, no symlinks)
 * with a known type; anything else is refused.
 */
export async function answerAppRequest(root: string, method: string, url: string): Promise<Response> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return plain(400, 'Bad request.');
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return plain(404, 'Not found.');
  if (method !== 'GET' && method !== 'HEAD') return plain(405, 'Method not allowed.');
  const found = findServedFile(root, parsed.pathname, PAGE_CONTENT_TYPES);
  if (found === 'bad') return plain(400, 'Bad request.');
  if (found === null) return plain(404, 'Not found.');
  const body = method === 'HEAD' ? null : await readFile(found.file);
  return new Response(body, { status: 200, headers: { ...hardening(), 'Content-Type': found.type } });
}

/** True when `candidate` is a page of the app: same scheme and host as the page the window loads. */
export function isAppPage(candidate: string, entryUrl: string): boolean {
  try {
    const page = new URL(candidate);
    const entry = new URL(entryUrl);
    // URL.origin is "null" for custom schemes, so compare scheme and host directly.
    return page.protocol === entry.protocol && page.host === entry.host;
  } catch {
    return false;
  }
}

function hardening(): Record<string, string> {
  return {
    'Content-Security-Policy': PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { ...hardening(), 'Content-Type': 'text/plain; charset=utf-8' } });
}
