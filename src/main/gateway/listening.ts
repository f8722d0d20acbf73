// Listening on the agent socket's path (a Unix socket or a Windows named pipe), telling a
// live app from a stale socket, and the error for "another app already serves this folder".
import { createConnection, type Server } from 'node:net';

export class AppAlreadyRunningError extends Error {
  readonly code = 'app_already_running';
  constructor(readonly dataDir: string) {
    super(`LetAgents is already running for this data folder (${dataDir}). Use that app, or quit it first.`);
    this.name = 'AppAlreadyRunningError';
  }
}

export function listen(server: Server, path: string): Promise<void> {
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
export function someoneListens(path: string): Promise<boolean> {
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
