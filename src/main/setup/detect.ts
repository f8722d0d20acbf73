// Whether an agent tool is installed: one of its folders/app bundles exists, or its command is on
// PATH (with Windows' PATHEXT extensions). Uses the injected environment, never the real one.
import { constants, promises as fs } from 'node:fs';
import type { AgentTool, HostContext } from './agentTools';
import { pathFor } from './agentTools';
import { findPackageRoot } from './helperCommand';

export async function isInstalled(tool: AgentTool, ctx: HostContext): Promise<boolean> {
  for (const marker of tool.markers) if (await exists(marker)) return true;
  for (const command of tool.commands) if (await onPath(command, ctx)) return true;
  return false;
}

async function onPath(command: string, ctx: HostContext): Promise<boolean> {
  return (await findOnPath(command, ctx)) !== null;
}

/** The full path of `command` on the environment's PATH (with PATHEXT on Windows), or null. */
export async function findOnPath(command: string, { platform, env }: Pick<HostContext, 'platform' | 'env'>): Promise<string | null> {
  const p = pathFor(platform);
  const pathValue = envValue(env, 'PATH', platform) ?? '';
  const own = ownBinFolder(p);
  const dirs = pathValue.split(platform === 'win32' ? ';' : ':').filter((dir) => dir !== '' && p.resolve(dir) !== own);
  const extensions =
    platform === 'win32'
      ? (envValue(env, 'PATHEXT', platform) ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((ext) => ext !== '')
      : [''];
  for (const dir of dirs) {
    for (const ext of extensions) {
      const file = p.join(dir, command + ext.toLowerCase());
      if (await isExecutable(file, platform)) return file;
    }
  }
  return null;
}

/**
 * LetAgents' own checkout's node_modules/.bin: npm scripts and npx put it first on PATH, and it
 * holds the agent CLIs pinned for LetAgents' tests, not the person's. Never searched, so the
 * badges, managed turns and sign-in fixes name the person's own CLIs. Null in a packaged app.
 */
function ownBinFolder(p: ReturnType<typeof pathFor>): string | null {
  if (packageRoot === undefined) {
    try {
      packageRoot = findPackageRoot();
    } catch {
      packageRoot = null;
    }
  }
  return packageRoot === null ? null : p.resolve(packageRoot, 'node_modules', '.bin');
}
let packageRoot: string | null | undefined;

/** Windows environment names are case-insensitive (Path, PATH). */
function envValue(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

async function isExecutable(file: string, platform: NodeJS.Platform): Promise<boolean> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile()) return false;
    if (platform !== 'win32') await fs.access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.stat(file);
    return true;
  } catch {
    return false;
  }
}
