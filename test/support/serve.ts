// Starting a real `letagents-desktop serve --json` for a test and stopping it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { requestUiLink } from '../../src/shared-node/appLink';
import { cliBin, repoRoot } from './cli';
import { tempDataDir, track, whileStopped } from './processes';

export interface ServeHandle {
  /** The link serve printed: its one-time code works once, within a minute. */
  readonly uiUrl: string;
  /** A fresh one-time link, asked of the running app as `letagents-desktop open` does. */
  newUiUrl(): Promise<string>;
  readonly mcpUrl: string;
  readonly socket: string;
  readonly dataDir: string;
  /** The agent token (from the data folder). */
  readonly token: string;
  readonly port: number;
  readonly process: ChildProcess;
  /** What serve printed so far. */
  output(): { stdout: string; stderr: string };
  /** Sends SIGTERM (or `signal`) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: an app crash. */
  kill(): Promise<void>;
}

export interface StartServeOptions {
  /** Defaults to a fresh temp folder. */
  readonly dataDir?: string;
  /** 'last' leaves --port out: serve takes the port it had last time for the folder, when free. */
  readonly port?: number | 'last';
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  /** More options for serve (`--open`, `--idle-exit 1`). */
  readonly args?: readonly string[];
}

/**
 * Starts serve again on `dataDir` after a crash with the agents' helpers held meanwhile
 * (whileStopped): a helper that finds the app gone for 3 s starts it itself (RELAUNCH_AFTER_MS
 * in appLink.ts), and on a loaded machine that came first, so this start found it already running.
 */
export function startServeAgain(dataDir: string, helpers: ReadonlyArray<{ readonly helperPid: number | null }>, options: StartServeOptions = {}): Promise<ServeHandle> {
  return whileStopped(helpers.map((h) => h.helperPid!), () => startServe({ ...options, dataDir }));
}

/** Spawns serve with --json and resolves once it printed its line. */
export function startServe(options: StartServeOptions = {}): Promise<ServeHandle> {
  const dataDir = options.dataDir ?? tempDataDir();
  const child = track(
    spawn(process.execPath, [cliBin, 'serve', '--json', '--data-dir', dataDir, ...(options.port === 'last' ? [] : ['--port', String(options.port ?? 0)]), ...(options.args ?? [])], {
      cwd: repoRoot,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not print its line within ${options.timeoutMs ?? 30_000} ms. stderr:\n${stderr}`));
    }, options.timeoutMs ?? 30_000);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (code ${code}, signal ${signal}) before printing its line. stderr:\n${stderr}`));
    });
    child.stdout!.on('data', (d) => {
      const wasEmpty = !stdout.includes('\n');
      stdout += d;
      if (!wasEmpty || !stdout.includes('\n')) return;
      clearTimeout(timer);
      const line = JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as Record<string, string>;
      resolve({
        uiUrl: line.ui_url,
        newUiUrl: async () => {
          const link = await requestUiLink(line.data_dir);
          if ('error' in link) throw new Error(link.error);
          return link.url;
        },
        mcpUrl: line.mcp_url,
        socket: line.socket,
        dataDir: line.data_dir,
        token: readFileSync(join(line.data_dir, 'agent-token'), 'utf8').trim(),
        port: Number(new URL(line.mcp_url).port),
        process: child,
        output: () => ({ stdout, stderr }),
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}
