// The agent socket: a Unix socket (mode 0600) in the data folder, or a named pipe on
// Windows. It replaces a stale socket file that nobody listens on and refuses to start
// when another app already serves the same data folder.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { chmodSync, statSync, unlinkSync } from 'node:fs';
import type { McpConnectionHandler } from '../mcp/connection';
import { agentSocketPath } from '../paths';
import type { ConnectionIdSource } from './connectionIds';
import { acceptAgentSocket, type SocketConnectionTimings } from './socketConnection';
import { HEARTBEAT_INTERVAL_MS, HEARTBEAT_MISSES, HELLO_TIMEOUT_MS } from '../../cli/helper/protocol';

export class AppAlreadyRunningError extends Error {
  readonly code = 'app_already_running';
  constructor(readonly dataDir: string) {
    super(`LetAgents is already running for this data folder (${dataDir}). Use that app, or quit it first.`);
    this.name = 'AppAlreadyRunningError';
  }
}

export interface AgentSocketServerOptions {
  readonly dataDir: string;
  readonly token: string;
  readonly handler: McpConnectionHandler;
  readonly nextConnectionId: ConnectionIdSource;
  /** Tests shorten these; the defaults are the spec's (data-model.md §5.5). */
  readonly timings?: Partial<SocketConnectionTimings>;
  /** Answers command-line API calls (`letagents-desktop agent …`). */
  readonly apiCall?: (method: string, input: unknown) => Promise<unknown>;
}

export interface AgentSocketServer {
  readonly path: string;
  /** Open sockets, including ones still in their hello. */
  readonly connectionCount: number;
  /** Stops listening, drops every connection and removes the socket file. */
  close(): Promise<void>;
}

export async function startAgentSocketServer(options: AgentSocketServerOptions): Promise<AgentSocketServer> {
  const path = agentSocketPath(options.dataDir);
  const timings: SocketConnectionTimings = {
    helloTimeoutMs: options.timings?.helloTimeoutMs ?? HELLO_TIMEOUT_MS,
    silenceTimeoutMs: options.timings?.silenceTimeoutMs ?? HEARTBEAT_INTERVAL_MS * HEARTBEAT_MISSES,
  };
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    acceptAgentSocket(socket, {
      token: options.token,
      handler: options.handler,
      nextConnectionId: options.nextConnectionId,
      timings,
      onGone: () => sockets.delete(socket),
      apiCall: options.apiCall,
    });
  });

  await listenReplacingStale(server, path, options.dataDir);
  const isPipe = process.platform === 'win32';
  // The folder is 0700 already; the socket itself is 0600 as well, belt and braces.
  if (!isPipe) chmodSync(path, 0o600);
  const inode = isPipe ? null : statSync(path).ino;

  let closing: Promise<void> | undefined;
  return {
    path,
    get connectionCount() {
      return sockets.size;
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }).then(() => {
        // Remove the file only if it is still ours (a newer app may have replaced it).
        if (inode !== null) removeIfSame(path, inode);
      })),
  };
}

async function listenReplacingStale(server: Server, path: string, dataDir: string): Promise<void> {
  try {
    await listen(server, path);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  }
  if (process.platform === 'win32' || (await someoneListens(path))) throw new AppAlreadyRunningError(dataDir);
  unlinkSync(path);
  try {
    await listen(server, path);
  } catch (error) {
    // Another app won the race for the freed path.
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new AppAlreadyRunningError(dataDir);
    throw error;
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(path, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/** True when a process accepts connections on `path` (or does not answer within 1 s). */
function someoneListens(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    const done = (answer: boolean) => {
      clearTimeout(timer);
      probe.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(true), 1_000);
    probe.once('connect', () => done(true));
    probe.once('error', (error: NodeJS.ErrnoException) => done(error.code !== 'ECONNREFUSED' && error.code !== 'ENOENT'));
  });
}

function removeIfSame(path: string, inode: number): void {
  try {
    if (statSync(path).ino === inode) unlinkSync(path);
  } catch {
    // already gone
  }
}
