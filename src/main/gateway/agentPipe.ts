// Windows: the agent socket is a named pipe. Its name is random, new at every start, and
// written to `<dataDir>/agent-pipe` (0600) for helpers to read: a name derived from the
// folder could be guessed and taken first by another user. libuv creates the pipe with
// FILE_FLAG_FIRST_PIPE_INSTANCE, so a name someone already holds fails (EADDRINUSE)
// instead of being shared; and helpers check the app's proof before they say anything.
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { pipeNamePath, readPipeName } from '../../shared-node/dataPaths';
import { AppAlreadyRunningError, listen, someoneListens } from './listening';

export const newPipeName = (): string => `\\\\.\\pipe\\letagents-desktop-${randomBytes(16).toString('hex')}`;

export interface PipeClaimOptions {
  /** Tests on Unix pass Unix socket paths here; the logic is the same. */
  readonly newName?: () => string;
  readonly readName?: (dataDir: string) => string | null;
}

/**
 * Listens on a fresh pipe and records its name; AppAlreadyRunningError when the recorded
 * pipe still answers, or when another app recorded its own pipe meanwhile (the file is
 * created exclusively, so of two apps starting at once only one keeps running).
 */
export async function listenOnFreshPipe(server: Server, dataDir: string, options: PipeClaimOptions = {}): Promise<string> {
  const previous = (options.readName ?? readPipeName)(dataDir);
  if (previous !== null && (await someoneListens(previous))) throw new AppAlreadyRunningError(dataDir);
  const file = pipeNamePath(dataDir);
  // What is left names a pipe nobody serves (an app that crashed).
  rmSync(file, { force: true });
  const name = (options.newName ?? newPipeName)();
  await listen(server, name);
  try {
    writeFileSync(file, `${name}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new AppAlreadyRunningError(dataDir);
    throw error;
  }
  return name;
}

/** Removes `agent-pipe` if it still names our pipe (a newer app may have replaced it). */
export function releasePipeName(dataDir: string, name: string, readName = readPipeName): void {
  if (readName(dataDir) === name) rmSync(pipeNamePath(dataDir), { force: true });
}
