// The agent socket: a Unix socket (mode 0600) in the data folder, or on Windows a named
// pipe with a random name (agentPipe.ts). It replaces a stale socket that nobody listens
// on and refuses to start when another app already serves the same data folder.
import { createServer, type Server, type Socket } from 'node:net';
import { chmodSync, statSync, unlinkSync } from 'node:fs';
import type { McpConnectionHandler } from '../mcp/connection';
import { unixSocketPath } from '../../shared-node/dataPaths';
import { listenOnFreshPipe, releasePipeName } from './agentPipe';
import type { ConnectionIdSource } from './connectionIds';
import { AppAlreadyRunningError, listen, someoneListens } from './listening';
import { acceptAgentSocket, type ApiCallHandler, type SocketConnectionTimings } from './socketConnection';
import { HEARTBEAT_INTERVAL_MS, HEARTBEAT_MISSES, HELLO_TIMEOUT_MS } from '../../shared-node/protocol';

export { AppAlreadyRunningError } from './listening';

export interface AgentSocketServerOptions {
  readonly dataDir: string;
  readonly token: string;
  readonly handler: McpConnectionHandler;
  readonly nextConnectionId: ConnectionIdSource;
  /** Tests shorten these; the defaults are the spec's (data-model.md §5.5). */
  readonly timings?: Partial<SocketConnectionTimings>;
  /** A fresh one-time link to the browser UI, for `letagents-desktop open`. */
  readonly uiLink?: () => string | null;
  /** Answers command-line API calls (`letagents-desktop agent …`). */
  readonly apiCall?: ApiCallHandler;
}

export interface AgentSocketServer {
  readonly path: string;
  /** Open sockets, including ones still in their hello. */
  readonly connectionCount: number;
  /** Stops listening, drops every connection and removes the socket file. */
  close(): Promise<void>;
}

export async function startAgentSocketServer(options: AgentSocketServerOptions): Promise<AgentSocketServer> {
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
      uiLink: options.uiLink,
      apiCall: options.apiCall,
      onGone: () => sockets.delete(socket),
    });
  });

  const isPipe = process.platform === 'win32';
  let path: string;
  if (isPipe) {
    path = await listenOnFreshPipe(server, options.dataDir);
  } else {
    path = unixSocketPath(options.dataDir);
    await listenReplacingStale(server, path, options.dataDir);
    // The folder is 0700 already; the socket itself is 0600 as well, belt and braces.
    chmodSync(path, 0o600);
  }
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
        else releasePipeName(options.dataDir, path);
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
  if (await someoneListens(path)) throw new AppAlreadyRunningError(dataDir);
  unlinkSync(path);
  try {
    await listen(server, path);
  } catch (error) {
    // Another app won the race for the freed path.
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new AppAlreadyRunningError(dataDir);
    throw error;
  }
}

function removeIfSame(path: string, inode: number): void {
  try {
    if (statSync(path).ino === inode) unlinkSync(path);
  } catch {
    // already gone
  }
}
