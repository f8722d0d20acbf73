// Starting the app in the background when an agent's helper finds none: the desktop app
// hidden in the tray (--background) when this helper runs inside an Electron executable,
// else `letagents-desktop serve --idle-exit`. Either exits on its own after a quiet period
// with no agent and no window (IDLE_EXIT_SECONDS), so a background app does not run forever.
// It runs in the person's home folder, not in the folder of the agent whose helper started it:
// every program the app starts inherits its working folder and PWD.
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { backgroundLogPath } from './dataPaths';
import { makeFolders } from './folders';
import { idleExitSeconds } from './protocol';

export interface LaunchedApp {
  readonly pid: number | undefined;
  readonly logPath: string;
  /** Resolves with how the process ended ("exited with code 1"), if it ends. */
  readonly exited: Promise<string>;
  /** The end of the log, for an error message. */
  logTail(): string;
}

export interface AppLaunchCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Where it runs (its PWD says the same): the person's home folder. */
  cwd: string;
}

/** What the helper knows about the process it runs in (tests pass their own). */
export interface HelperRuntime {
  readonly execPath: string;
  /** process.argv[1]: the letagents-desktop script. */
  readonly script: string | undefined;
  readonly versions: Partial<Record<string, string>>;
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
}

const thisProcess = (): HelperRuntime => ({ execPath: process.execPath, script: process.argv[1], versions: process.versions, env: process.env, home: homedir() });

/**
 * The command that starts the app for `dataDir`. Agents run the packaged helper as
 * `<app executable> <resources>/app.asar.unpacked/bin/letagents-desktop.js mcp` with
 * ELECTRON_RUN_AS_NODE=1, so an Electron runtime here means the desktop app is installed:
 * start that executable as the app (without the variable), hidden in the tray. A
 * development checkout's Electron binary also needs the checkout folder (bin/..).
 */
export function appLaunchCommand(dataDir: string, runtime: HelperRuntime = thisProcess()): AppLaunchCommand {
  const cli = runtime.script;
  if (!cli) throw new Error('cannot tell where the letagents-desktop command is');
  const cwd = runtime.home;
  if (runtime.versions.electron) {
    const env: NodeJS.ProcessEnv = { ...runtime.env, PWD: cwd, LETAGENTS_STARTED_BY_HELPER: '1' };
    delete env.ELECTRON_RUN_AS_NODE;
    const appArgs = ['--background', '--data-dir', dataDir];
    const packaged = cli.split(/[\\/]/).includes('app.asar.unpacked');
    return { command: runtime.execPath, args: packaged ? appArgs : [path.dirname(path.dirname(cli)), ...appArgs], env, cwd };
  }
  const env = { ...runtime.env, PWD: cwd, LETAGENTS_STARTED_BY_HELPER: '1' };
  return { command: runtime.execPath, args: [cli, 'serve', '--data-dir', dataDir, '--idle-exit', String(idleExitSeconds(runtime.env))], env, cwd };
}

/** Spawns the app detached, its output appended to a log in the data folder. Throws with a clear reason. */
export function launchAppInBackground(dataDir: string): LaunchedApp {
  const logPath = backgroundLogPath(dataDir);
  const { command, args, env, cwd } = appLaunchCommand(dataDir);
  let log: number;
  try {
    makeFolders(dataDir);
    log = openSync(logPath, 'a', 0o600);
  } catch (error) {
    throw new Error(`cannot write its log at ${logPath}: ${(error as Error).message}`);
  }
  let child;
  try {
    child = spawn(command, args, { cwd, detached: true, env, stdio: ['ignore', log, log], windowsHide: true });
  } finally {
    closeSync(log);
  }
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not be started: ${error.message}`));
    child.once('exit', (code, signal) => resolve(signal ? `was stopped by ${signal}` : `exited with code ${code}`));
  });
  child.unref();
  return {
    pid: child.pid,
    logPath,
    exited,
    logTail: () => {
      try {
        const lines = readFileSync(logPath, 'utf8').trimEnd().split('\n');
        return `Last lines of ${logPath}:\n${lines.slice(-10).join('\n')}`;
      } catch {
        return `(no log at ${logPath})`;
      }
    },
  };
}
