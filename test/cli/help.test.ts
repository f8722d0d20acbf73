// Every command answers --help (exit 0, without doing anything else) and the command prints
// its version; the usage after a mistake lists the same commands.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../src/cli/help';
import { cleanupSpawned, ensureCliBuilt, repoRoot, runCli, tempDataDir } from '../support';

beforeAll(ensureCliBuilt);
afterAll(cleanupSpawned);

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

describe('letagents-desktop --help and --version', () => {
  it('prints the version', async () => {
    const result = await runCli(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `letagents-desktop ${version}\n`, stderr: '' });
  });

  it('lists every command with its options', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const name of ['serve', 'open', 'mcp', 'doctor']) expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\[--data-dir D\\]`, 'm'));
    expect(result.stdout).toContain('`letagents-desktop <command> --help` says more about one command');
  });

  it.each(COMMANDS.map((c) => [c.name, c.ownHelp === true]))('%s --help explains the command, exits 0 and does nothing else', async (name, ownHelp) => {
    const dataDir = tempDataDir();
    for (const flag of ['--help', '-h']) {
      const result = await runCli([name, '--data-dir', dataDir, flag], { timeoutMs: 10_000 });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      // agent and team print their own help, which lists their actions first.
      expect(result.stdout.startsWith(`usage: letagents-desktop ${name} ${ownHelp ? '' : '[--data-dir D]'}`)).toBe(true);
    }
    // Nothing was started or created: mcp did not launch an app, serve did not make the folder.
    expect(existsSync(dataDir)).toBe(false);
  });

  it('says what serve does with the port', async () => {
    const result = await runCli(['serve', '--help']);
    expect(result.stdout).toContain('Without --port it takes the port it had last time for this data folder when that port is free');
  });

  it('refuses an unknown command with the usage and exit 2', async () => {
    const result = await runCli(['frobnicate', '--help']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^letagents-desktop: unknown command "frobnicate"\nusage: letagents-desktop <command> \[options\]/);
  });

  it('answers a mistyped command or option with exit 2 and the nearest name, never the parser\'s own text', async () => {
    const command = await runCli(['sevre']);
    expect(command.code).toBe(2);
    expect(command.stderr.split('\n')[0]).toBe('letagents-desktop: unknown command "sevre"; did you mean serve?');
    for (const [args, line] of [
      [['serve', '--prot', '3'], 'letagents-desktop serve: unknown option --prot; did you mean --port?'],
      [['doctor', '--data-dri', 'x'], 'letagents-desktop doctor: unknown option --data-dri; did you mean --data-dir?'],
      [['open', '--data-dir'], 'letagents-desktop open: --data-dir needs a value'],
      [['stop', 'now'], 'letagents-desktop stop: unexpected argument "now"'],
      [['mcp', '--tool', 'core'], 'letagents-desktop mcp: unknown option --tool; did you mean --tools?'],
    ] as const) {
      const result = await runCli([...args], { timeoutMs: 10_000 });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`${line}\n(\`letagents-desktop ${args[0]} --help\` shows every option.)\n`);
      expect(result.stderr).not.toMatch(/Unknown option '|positional argument|ERR_PARSE_ARGS/);
    }
  });

  it('takes --data-dir before the command too', async () => {
    const dataDir = tempDataDir();
    const result = await runCli(['--data-dir', dataDir, 'doctor']);
    expect(result.stdout).toContain(`LetAgents doctor: data folder ${dataDir}`);
    expect((await runCli([`--data-dir=${dataDir}`, 'stop'])).stdout).toBe(`No LetAgents app is running for ${dataDir}; nothing to stop.\n`);
  });

  it('agent add needs --folder when the current folder is LetAgents\' own checkout', async () => {
    const result = await runCli(['agent', 'add', '--room', 'r', '--name', 'Juniper', '--provider', 'codex', '--data-dir', tempDataDir()], { cwd: repoRoot });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`letagents-desktop agent add: --folder is required here: ${repoRoot} is inside LetAgents' own checkout (${repoRoot})`);
  });
});
