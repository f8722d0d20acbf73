// The command an agent tool runs to reach LetAgents: the stdio helper (`letagents-desktop mcp`).
// It carries no token or secret: the helper reads the agent token from the data dir itself.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from '../paths';

export interface HelperCommand {
  command: string;
  args: string[];
  /**
   * Environment the agent tool must set, e.g. ELECTRON_RUN_AS_NODE=1 when the command is
   * the app's Electron executable. Never a secret.
   */
  env?: Readonly<Record<string, string>>;
}

export interface DevHelperOptions {
  /** The data dir the app runs with; baked in only when it is not the default one. */
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** The Node binary to run the CLI with (default: this process's). */
  execPath?: string;
}

/**
 * The helper command of a development checkout: this Node binary running
 * `<repo>/bin/letagents-desktop.js mcp`.
 *
 * The data dir is written into the command only when the app uses a non-default one
 * (`--data-dir` or LETAGENTS_DESKTOP_DATA_DIR): agent tools start the helper with their own
 * environment, so without the flag such a helper would look in the default folder and miss the
 * app. With the default folder the entry stays short and survives moving the data dir back.
 *
 * Note: inside Electron, process.execPath is the Electron binary, which runs scripts only with
 * ELECTRON_RUN_AS_NODE; the Electron shell passes its own `execPath` (or a packaged helper).
 */
export function resolveDevHelperCommand(options: DevHelperOptions = {}): HelperCommand {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const args = [path.join(findPackageRoot(), 'bin', 'letagents-desktop.js'), 'mcp'];
  if (options.dataDir !== undefined) {
    const dataDir = path.resolve(options.dataDir);
    if (dataDir !== path.resolve(defaultDataDir(env, platform))) args.push('--data-dir', dataDir);
  }
  return { command: options.execPath ?? process.execPath, args };
}

/** The entry fields a tool stores: `type` only where the format asks for it, never `env`. */
export function entryFields(helper: HelperCommand, withStdioType: boolean): Record<string, unknown> {
  const env = helper.env && Object.keys(helper.env).length > 0 ? { env: { ...helper.env } } : {};
  const base = { command: helper.command, args: [...helper.args], ...env };
  return withStdioType ? { type: 'stdio', ...base } : base;
}

/** The checkout's root: the nearest folder up from this file whose package.json is ours (works from src/ and out/). */
export function findPackageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'letagents-desktop') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('letagents-desktop package root not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}
