// The helper command the connect-agents writers put into agent configs, for the build that
// is running: the packaged app's own executable running its unpacked CLI script, or the
// development checkout's bin/letagents-desktop.js run by the Electron binary.
//
// Either way the command is an Electron executable, which behaves as plain Node only with
// ELECTRON_RUN_AS_NODE=1 in its environment. That is why the packaged app keeps the RunAsNode
// fuse on (see electron-builder.yml) and why this command carries `env`: the config writers
// must write it into the entry (it is not a secret).
import path from 'node:path';
import { resolveDevHelperCommand, type HelperCommand } from '../setup/helperCommand';

export const RUN_AS_NODE_ENV: Readonly<Record<string, string>> = Object.freeze({ ELECTRON_RUN_AS_NODE: '1' });

export interface AppHelperCommand extends HelperCommand {
  readonly env: Readonly<Record<string, string>>;
}

export interface AppHelperOptions {
  readonly isPackaged: boolean;
  /** process.execPath: the app executable (packaged) or the Electron binary (development). */
  readonly execPath: string;
  /** process.resourcesPath of a packaged app. */
  readonly resourcesPath: string;
  /** The data dir the app runs with; written into the command only when it is not the default. */
  readonly dataDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly platform?: NodeJS.Platform;
}

/** The unpacked copy of bin/letagents-desktop.js inside a packaged app (asarUnpack: bin/**, out/cli/**). */
export function packagedHelperScript(resourcesPath: string, platform: NodeJS.Platform = process.platform): string {
  const join = platform === 'win32' ? path.win32.join : path.posix.join;
  return join(resourcesPath, 'app.asar.unpacked', 'bin', 'letagents-desktop.js');
}

export function resolveAppHelperCommand(options: AppHelperOptions): AppHelperCommand {
  const dev = resolveDevHelperCommand({ dataDir: options.dataDir, env: options.env, platform: options.platform, execPath: options.execPath });
  const args = options.isPackaged ? [packagedHelperScript(options.resourcesPath, options.platform), ...dev.args.slice(1)] : dev.args;
  return { command: options.execPath, args, env: RUN_AS_NODE_ENV };
}
