// `/mcp`: Streamable HTTP with stateful sessions, one McpServer per Mcp-Session-Id;
// `/mcp?tools=core` opens a session with the compact tool list.
// A session ends on DELETE, on app shutdown, after 30 min with no request and no open
// stream (data-model.md §5.5), or past a limit of connectionLimits.ts (replies unread,
// calls in flight), with a logged reason; each end calls handler.closed once.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpConnectionHandler } from '../mcp/connection';
import type { ConnectionIdSource } from './connectionIds';
import { limitReasons, MAX_CALLS_IN_FLIGHT, MAX_UNREAD_BYTES } from './connectionLimits';
import { checkLoopbackRequest } from './httpGuards';
import { TOOL_PROFILE_NAMES, type ToolProfileName } from '../../shared-node/protocol';

export const HTTP_SESSION_IDLE_MS = 30 * 60_000;
const MAX_BODY_BYTES = 4 * 1024 * 1024;

interface Session {
  readonly id: string;
  readonly connectionId: string;
  readonly transport: StreamableHTTPServerTransport;
  /** Requests (and streams) still open. */
  active: number;
  /** POSTs still open: calls whose answers are not all written out yet. */
  posts: number;
  /** Bytes of messages sent and not yet handed to the operating system (written, less flushed). */
  unread: number;
  readonly responses: Set<ServerResponse>;
  dropped: boolean;
  idleTimer: NodeJS.Timeout | null;
}

export interface McpHttpEndpointOptions {
  readonly token: string;
  readonly handler: McpConnectionHandler;
  readonly nextConnectionId: ConnectionIdSource;
  readonly sessionIdleMs?: number;
}

export class McpHttpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly idleMs: number;

  constructor(private readonly options: McpHttpEndpointOptions) {
    this.idleMs = options.sessionIdleMs ?? HTTP_SESSION_IDLE_MS;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, port: number): Promise<void> {
    const guard = checkLoopbackRequest(req, { port, token: this.options.token });
    if (!guard.ok) return sendRpcError(res, guard.status, -32001, guard.message);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = this.sessions.get(sessionId);
      if (!session) return sendRpcError(res, 404, -32001, 'Session not found: start a new one with initialize.');
      if (req.method === 'POST' && session.posts >= MAX_CALLS_IN_FLIGHT) {
        sendRpcError(res, 429, -32000, `Too many calls in flight (${MAX_CALLS_IN_FLIGHT}): this session is closed; start a new one with initialize.`);
        return this.drop(session, limitReasons.inFlight());
      }
      this.track(session, res);
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return sendRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required.');
    const body = await readJsonBody(req, res);
    if (body === undefined) return;
    if (!isInitializeRequest(body)) {
      return sendRpcError(res, 400, -32000, 'Bad Request: No valid session ID provided (send initialize first).');
    }
    const tools = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('tools') ?? 'full';
    if (!TOOL_PROFILE_NAMES.includes(tools as ToolProfileName)) {
      return sendRpcError(res, 400, -32000, `Bad Request: tools must be one of ${TOOL_PROFILE_NAMES.join(', ')}, not "${tools}".`);
    }
    await this.openSession(req, res, body, tools as ToolProfileName);
  }

  /** Ends every session (app shutdown). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close()));
  }

  private async openSession(req: IncomingMessage, res: ServerResponse, body: unknown, toolProfile: ToolProfileName): Promise<void> {
    const sessionId = randomUUID();
    const connectionId = this.options.nextConnectionId();
    const server = this.options.handler.open({ id: connectionId, transport: 'http', cwd: null, ideHint: null, toolProfile });
    const session: Session = {
      id: sessionId,
      connectionId,
      transport: new StreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId }),
      active: 0,
      posts: 0,
      unread: 0,
      responses: new Set(),
      dropped: false,
      idleTimer: null,
    };
    this.countSent(session);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (session.idleTimer) clearTimeout(session.idleTimer);
      this.sessions.delete(sessionId);
      this.options.handler.closed(connectionId);
    };
    // Set before connect(): the SDK chains it with its own close handling.
    session.transport.onclose = end;
    this.sessions.set(sessionId, session);
    this.track(session, res);
    try {
      await server.connect(session.transport);
      await session.transport.handleRequest(req, res, body);
    } finally {
      // An initialize the SDK rejected leaves no session behind.
      if (session.transport.sessionId === undefined) await server.close().finally(end);
    }
  }

  /** Ends a session past a limit: its streams are cut and its server closed. */
  private drop(session: Session, reason: string): void {
    if (session.dropped) return;
    session.dropped = true;
    console.warn(`mcp http: closed session ${session.connectionId}: ${reason}.`);
    for (const res of session.responses) res.destroy();
    void session.transport.close();
  }

  /** Every message the session's server sends counts as unread until its bytes are flushed. */
  private countSent(session: Session): void {
    const transport = session.transport;
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      await send(message, options);
      session.unread += Buffer.byteLength(JSON.stringify(message));
      if (session.unread > MAX_UNREAD_BYTES) this.drop(session, limitReasons.unread());
    };
  }

  /** Counts the request as activity until its response (or stream) closes, and its bytes as read once flushed. */
  private track(session: Session, res: ServerResponse): void {
    session.active++;
    const post = res.req.method === 'POST';
    if (post) session.posts++;
    session.responses.add(res);
    if (session.idleTimer) clearTimeout(session.idleTimer);
    session.idleTimer = null;
    this.options.handler.touched?.(session.connectionId);
    const write = res.write.bind(res) as (chunk: unknown, encoding?: unknown, done?: unknown) => boolean;
    res.write = ((chunk: string | Uint8Array, encoding?: unknown, done?: unknown) => {
      const callback = typeof encoding === 'function' ? encoding : done;
      const bytes = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      return write(chunk, typeof encoding === 'function' ? undefined : encoding, (error?: Error | null) => {
        // Flushed to the operating system (SSE framing makes it a little more than was sent).
        session.unread = Math.max(0, session.unread - bytes);
        if (typeof callback === 'function') callback(error);
      });
    }) as typeof res.write;
    res.once('close', () => {
      session.active--;
      if (post) session.posts--;
      session.responses.delete(res);
      if (session.active === 0 && this.sessions.has(session.id)) {
        session.idleTimer = setTimeout(() => void session.transport.close(), this.idleMs);
        session.idleTimer.unref();
      }
    });
  }
}

async function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      sendRpcError(res, 413, -32000, `Request body larger than ${MAX_BODY_BYTES} bytes.`);
      req.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    sendRpcError(res, 400, -32700, 'Parse error: the body is not JSON.');
    return undefined;
  }
}

export function sendRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return void res.end();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="letagents-desktop"';
  res.writeHead(status, headers).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
