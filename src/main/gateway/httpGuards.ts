// Guards for every HTTP request to the app (architecture.md §5): the Host must be this
// app's loopback address (DNS rebinding), an Origin must be that same loopback origin
// (drive-by pages), and the agent token must come as a bearer token. The browser host
// (src/main/web) reuses the Host and Origin checks for its pages and WebSocket.
import type { IncomingMessage } from 'node:http';
import { tokensEqual } from './agentToken';

export type GuardResult = { ok: true } | { ok: false; status: number; message: string };

export interface LoopbackGuardOptions {
  /** The port the server actually listens on. */
  readonly port: number;
  readonly token: string;
}

type GuardedRequest = Pick<IncomingMessage, 'headers' | 'url'>;

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const OK: GuardResult = { ok: true };

/** The Host header names this server: 127.0.0.1, localhost or [::1], with our port. */
export function checkLoopbackHost(req: GuardedRequest, port: number): GuardResult {
  const host = req.headers.host;
  if (host && isLoopbackAuthority(withPort(host, 80), port)) return OK;
  return {
    ok: false,
    status: 421,
    message: `Refused: Host "${host ?? ''}" is not this app's address (expected 127.0.0.1:${port}, localhost:${port} or [::1]:${port}).`,
  };
}

/** No Origin (not a browser, or a same-origin navigation), or exactly our loopback origin. */
export function checkLoopbackOrigin(req: GuardedRequest, port: number): GuardResult {
  const origin = req.headers.origin;
  if (origin === undefined) return OK;
  const lower = origin.toLowerCase();
  if (lower.startsWith('http://') && isLoopbackAuthority(withPort(lower.slice('http://'.length), 80), port)) return OK;
  return { ok: false, status: 403, message: `Refused: cross-site request from Origin "${origin}".` };
}

/** Host, Origin and token together, in that order. */
export function checkLoopbackRequest(req: GuardedRequest, options: LoopbackGuardOptions): GuardResult {
  const host = checkLoopbackHost(req, options.port);
  if (!host.ok) return host;
  const origin = checkLoopbackOrigin(req, options.port);
  if (!origin.ok) return origin;
  if (tokensEqual(bearerToken(req), options.token)) return OK;
  return {
    ok: false,
    status: 401,
    message: 'Missing or wrong agent token: send "Authorization: Bearer <contents of agent-token in the data folder>".',
  };
}

/** Only from the Authorization header: a token in a URL would end up in logs and histories. */
function bearerToken(req: GuardedRequest): string | null {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1] : null;
}

/** An authority without a port uses the scheme's default one. */
function withPort(authority: string, defaultPort: number): string {
  return /:\d+$/.test(authority) ? authority : `${authority}:${defaultPort}`;
}

function isLoopbackAuthority(authority: string, port: number): boolean {
  const lower = authority.toLowerCase();
  return LOOPBACK_NAMES.some((name) => lower === `${name}:${port}`);
}
