// Small pieces of an HTTP request that the browser host and the phone listener read the same
// way: the path, the page key a socket offers, a small JSON body, and a refused upgrade.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { UI_KEY_PROTOCOL_PREFIX } from '../../shared/bridge';

const MAX_BODY_BYTES = 4 * 1024;

export function pathOf(req: Pick<IncomingMessage, 'url'>): string {
  return (req.url ?? '/').split(/[?#]/, 1)[0];
}

/** The key a page's socket offered as a subprotocol (`key.<key>`), or null. */
export function socketKey(req: Pick<IncomingMessage, 'headers'>): string | null {
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  const key = offered.find((p) => p.startsWith(UI_KEY_PROTOCOL_PREFIX));
  return key === undefined ? null : key.slice(UI_KEY_PROTOCOL_PREFIX.length);
}

/** A small JSON object body (at most 4 KiB); null for anything else. */
export async function readSmallJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  let text = '';
  for await (const chunk of req as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length > MAX_BODY_BYTES) return null;
  }
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const REASONS: Readonly<Record<number, string>> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 421: 'Misdirected Request' };

/** Answers an upgrade with a plain HTTP refusal and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  const body = Buffer.from(message, 'utf8');
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Forbidden'}\r\n` +
      'Connection: close\r\nContent-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${body.length}\r\n\r\n${body.toString('utf8')}`,
  );
}
