import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ensureCliBuilt, repoRoot } from '../support';

interface Target {
  target: string;
  arch?: string[];
}
interface BuilderConfig {
  appId: string;
  productName: string;
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string }[];
  electronFuses: Record<string, boolean>;
  mac: { target: Target[]; icon: string; entitlements: string; hardenedRuntime: boolean };
  win: { target: Target[]; icon: string };
  linux: { target: (string | Target)[]; icon: string };
}

const config = parse(readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

/** electron-builder's globs as a regular expression (enough for the patterns used here). */
function globMatches(pattern: string, path: string): boolean {
  const source = pattern
    .split('**/')
    .map((part) => part.split('**').map((p) => p.split('*').map((q) => q.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')).join('.*'))
    .join('(?:.*/)?');
  return new RegExp(`^${source}$`).test(path);
}
const unpacked = (path: string) => config.asarUnpack.some((pattern) => globMatches(pattern, path));

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)));
}

describe('the installers electron-builder makes', () => {
  it('are a dmg and a zip for Apple silicon and Intel Macs', () => {
    expect(config.mac.target).toEqual([
      { target: 'dmg', arch: ['arm64', 'x64'] },
      { target: 'zip', arch: ['arm64', 'x64'] },
    ]);
    expect(config.mac.hardenedRuntime).toBe(true);
  });

  it('are an NSIS installer for Windows and an AppImage and a deb for Linux', () => {
    expect(config.win.target.map((t) => t.target)).toEqual(['nsis']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
  });

  it('name the app as the data folder expects (LetAgents)', () => {
    expect(config.productName).toBe('LetAgents');
    expect(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).productName).toBe('LetAgents');
  });

  it('use icons and entitlements that exist in build/', () => {
    for (const file of [config.mac.icon, config.mac.entitlements, config.win.icon, config.linux.icon]) expect(existsSync(join(repoRoot, file)), file).toBe(true);
    for (const resource of config.extraResources) expect(existsSync(join(repoRoot, resource.from)), resource.from).toBe(true);
    expect(config.extraResources).toContainEqual({ from: 'build/icons', to: 'icons' });
    for (const name of ['tray.png', 'trayTemplate.png', 'trayTemplate@2x.png', 'icon.png']) expect(existsSync(join(repoRoot, 'build', 'icons', name)), name).toBe(true);
  });
});

describe('Electron fuses of the packaged app', () => {
  it('leave RunAsNode on: agents run the helper through the app executable', () => {
    expect(config.electronFuses.runAsNode).toBe(true);
    expect(readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8')).toContain('ELECTRON_RUN_AS_NODE=1');
  });

  it('turn off NODE_OPTIONS, --inspect and file:// privileges, and load the app only from a checked app.asar', () => {
    expect(config.electronFuses).toMatchObject({
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      grantFileProtocolExtraPrivileges: false,
      onlyLoadAppFromAsar: true,
      enableEmbeddedAsarIntegrityValidation: true,
      enableCookieEncryption: true,
    });
  });
});

describe('what stays outside app.asar', () => {
  it('unpacks the native modules: better-sqlite3 and @napi-rs/keyring with its platform binary', () => {
    const natives = [
      ...filesUnder(join(repoRoot, 'node_modules', 'better-sqlite3')).filter((f) => f.endsWith('.node') || f.includes('/lib/')),
      ...readdirSync(join(repoRoot, 'node_modules', '@napi-rs'))
        .filter((name) => name.startsWith('keyring'))
        .flatMap((name) => filesUnder(join(repoRoot, 'node_modules', '@napi-rs', name))),
    ];
    expect(natives.some((f) => f.endsWith('.node'))).toBe(true);
    for (const file of natives) expect(unpacked(file), file).toBe(true);
    expect(unpacked('node_modules/zod/index.js')).toBe(false);
    expect(unpacked('out/main/index.js')).toBe(false);
  });

  it('unpacks the helper script and the CLI bundle, which agents run by path', () => {
    expect(unpacked('bin/letagents-desktop.js')).toBe(true);
    expect(unpacked('out/cli/cli.mjs')).toBe(true);
    for (const file of ['out/main/**', 'out/preload/**', 'out/renderer/**', 'out/cli/**', 'bin/**']) expect(config.files).toContain(file);
  });
});

describe('the helper an installed app runs', () => {
  beforeAll(ensureCliBuilt, 120_000);

  it('needs nothing but Node built-ins, so it runs from app.asar.unpacked without node_modules', () => {
    const cliDir = join(repoRoot, 'out', 'cli');
    const entry = readFileSync(join(cliDir, 'cli.mjs'), 'utf8');
    const helperChunk = /case "mcp":\s*return \(await import\("\.\/([^"]+)"\)\)/.exec(entry)?.[1];
    expect(helperChunk).toBeDefined();
    const seen = new Set<string>();
    const bare = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(join(cliDir, file), 'utf8');
      for (const [, spec] of text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
        if (spec.startsWith('./')) visit(spec.slice(2));
        else bare.add(spec);
      }
    };
    visit(helperChunk!);
    expect([...bare].filter((spec) => !spec.startsWith('node:'))).toEqual([]);
  });
});

describe('npm run package', () => {
  it('builds the app, then the installers', () => {
    expect(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).scripts.package).toBe('npm run build && electron-builder');
  });
});
