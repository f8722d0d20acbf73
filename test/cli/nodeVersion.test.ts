// On a Node older than 22.12 the CLI's native modules crash the process (exit 139) without a
// word. The command runs on the checkout's own Node 22 instead, or says what to do.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, cliBin, ensureCliBuilt, repoRoot, tempDataDir, waitUntil } from '../support';
import { track } from '../support/processes';

beforeAll(ensureCliBuilt);
afterAll(cleanupSpawned);

const scratch = mkdtempSync(join(tmpdir(), 'la-node-version-'));
// Node 22 reporting itself as 20.11.1, as an old Node would, for the first process only.
const pretendOld = join(scratch, 'pretend-node-20.cjs');
writeFileSync(pretendOld, "Object.defineProperty(process.versions, 'node', { value: '20.11.1' });\n");

interface OldNode { name: string; argv: string[]; version: string }
const oldNodes: OldNode[] = [{ name: 'Node 22 reporting 20.11.1', argv: [process.execPath, '-r', pretendOld], version: '20.11.1' }];
// The machine's own Node, where it is old (Debian's is 20 here): the real crash this prevents.
const systemNode = spawnSync('/usr/bin/node', ['-p', 'process.versions.node'], { encoding: 'utf8' });
const systemVersion = systemNode.status === 0 ? systemNode.stdout.trim() : '';
if (systemVersion && Number(systemVersion.split('.')[0]) < 22) {
  oldNodes.push({ name: `the machine's Node ${systemVersion}`, argv: ['/usr/bin/node'], version: systemVersion });
}

function run(argv: string[], bin: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const [command, ...pre] = argv;
    const child = track(spawn(command, [...pre, bin, ...args], { cwd: repoRoot, env: { ...process.env, LETAGENTS_DESKTOP_REEXEC: '' }, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.each(oldNodes)('letagents-desktop on $name', (old) => {
  it('serves on the checkout\'s Node 22 instead of crashing, and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDataDir();
    const [command, ...pre] = old.argv;
    const child = track(spawn(command, [...pre, cliBin, 'serve', '--json', '--port', '0', '--data-dir', dataDir], { cwd: repoRoot, env: { ...process.env, LETAGENTS_DESKTOP_REEXEC: '' }, stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    await waitUntil(() => stdout.includes('\n') || child.exitCode !== null || child.signalCode !== null, 20_000, 'serve printing its addresses');
    expect(stderr).toBe('');
    expect(JSON.parse(stdout.split('\n')[0])).toMatchObject({ data_dir: dataDir });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('says which Node it needs and what to do where the checkout has no Node 22', async () => {
    const bare = mkdtempSync(join(scratch, 'bare-'));
    mkdirSync(join(bare, 'bin'));
    copyFileSync(cliBin, join(bare, 'bin', 'letagents-desktop.js'));
    writeFileSync(join(bare, 'package.json'), '{"type":"module"}');
    const result = await run(old.argv, join(bare, 'bin', 'letagents-desktop.js'), ['doctor']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`letagents-desktop needs Node ≥ 22.12; you have ${old.version}`);
    expect(result.stderr).toContain('npx letagents-desktop');
    expect(result.stdout).toBe('');
  });
});

// Issue 35 item 12: npm checked the checkout's `engines` (it said Node ≥ 22.12) against the Node
// that runs npm and printed ten lines of EBADENGINE the first time `npx letagents-desktop …` ran in
// a checkout (while it links the checkout into its npx cache). The command runs on any Node ≥ 18 (it
// runs itself again on the checkout's Node 22), and `engines` now says so.
describe("npx letagents-desktop with npm on the machine's own Node", () => {
  it(`prints the command's own output and no npm warnings, on its first run in the checkout too (system Node ${systemVersion || 'unknown'})`, async () => {
    // Without npm's settings from the `npm test` that runs this file (a silenced log level would
    // hide the warnings), without the checkout's node_modules/.bin (so npm runs on the machine's
    // Node), and with an empty npm cache: npx's first run in a checkout is the one that checks.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
    env.PATH = (env.PATH ?? '').split(':').filter((dir) => !dir.includes('node_modules')).join(':');
    env.npm_config_cache = join(scratch, 'npm-cache');
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = track(spawn('npx', ['letagents-desktop', '--version'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] }));
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (d) => (stdout += d));
      child.stderr!.on('data', (d) => (stderr += d));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^letagents-desktop \d+\.\d+\.\d+\n$/);
    expect(result.code).toBe(0);
  }, 90_000);
});
