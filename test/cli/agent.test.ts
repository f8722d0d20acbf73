// `letagents-desktop agent …` against a real `serve`: add, list, run (a real Codex turn
// against a fake model server), pause, remove; usage errors; no app; and the agent socket
// answering only the managed-agent methods to the command line.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApp } from '../../src/cli/appApi';
import type { ManagedAgent } from '../../src/shared/types';
import { cleanupSpawned, connectHelper, ensureCliBuilt, repoRoot, runCli, startServe, tempDataDir, tempDir, toolJson, waitUntil, type ServeHandle } from '../support';
import { replyInRoom, startFakeModel, type FakeModel } from '../support/fakeModels';
import { CLI_BIN } from '../main/agents/managedApp';
import { git, initRepo } from '../main/agents/gitFixtures';

let serve: ServeHandle;
let model: FakeModel;
let folder: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  await ensureCliBuilt();
  const home = tempDir('la-cli-agent-home-');
  model = await startFakeModel('codex', home);
  env = { ...model.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` };
  serve = await startServe({ env });
  folder = join(tempDir('la-cli-agent-'), 'repo');
  mkdirSync(folder);
  const helper = await connectHelper(serve.dataDir);
  await helper.callTool({ name: 'join_room', arguments: { name: 'cli-room' } });
  await helper.close();
}, 60_000);

afterAll(async () => {
  await serve?.stop();
  await model?.close();
  await cleanupSpawned();
});

const agentCli = (...args: string[]) => runCli(['agent', ...args, '--data-dir', serve.dataDir], { env, cwd: folder });
const listed = async (): Promise<ManagedAgent[]> => JSON.parse((await agentCli('list', '--json')).stdout);

describe('letagents-desktop agent', () => {
  it('adds, lists, runs, pauses and removes a managed agent through the running app', async () => {
    const added = await agentCli('add', '--room', 'cli-room', '--name', 'Juniper', '--provider', 'codex', '--turns-per-hour', '3');
    expect(added.stderr).toBe('');
    expect(added.stdout).toBe(
      'Added Juniper (Codex) to cli-room; it takes a turn when something there needs it.\n' +
        `It works in ${folder} (the current folder; --folder chooses another).\n` +
        `The app runs Codex from ${CLI_BIN}/codex (found on the app's PATH).\n`,
    );
    const [agent] = await listed();
    expect(agent).toMatchObject({ name: 'Juniper', provider: 'codex', folder, permissions: 'read_only', turnsPerHour: 3, state: 'idle' });
    const table = (await agentCli('list')).stdout;
    expect(table).toMatch(/^NAME\s+PROVIDER\s+ROOM\s+STATE/);
    // The Agents page's words, not the raw state (issue 27): Idle (issue 35), Taking a turn, Paused.
    expect(table).toMatch(/Juniper\s+Codex\s+cli-room\s+Idle\s+0\/3/);

    model.script.push('Juniper', ...replyInRoom('Ran from the command line.'));
    expect((await agentCli('run', 'juniper')).code).toBe(0);
    const ended = async () => ((await listed())[0].lastTurn?.status ?? 'running') !== 'running';
    await waitUntil(ended, 30_000, 'the turn to end');
    expect((await listed())[0].lastTurn?.status).toBe('done');

    expect((await agentCli('pause', 'Juniper')).stdout).toBe('Juniper: Paused\n');
    expect((await listed())[0].desiredState).toBe('paused');
    expect((await agentCli('remove', agent.agentId)).stdout).toBe('Removed Juniper.\n');
    expect(await listed()).toEqual([]);
  });

  it('explains bad input (exit 2), refusals and a missing app (exit 1)', async () => {
    const usage = await agentCli('add', '--room', 'cli-room', '--provider', 'codex');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--name is required/);
    expect((await agentCli('add', '--room', 'cli-room', '--name', 'X', '--provider', 'cursor')).stderr).toMatch(/--provider must be one of claude, claude-code, codex, gemini, gemini-cli, opencode, copilot/);
    expect((await agentCli('fly')).code).toBe(2);
    const refused = await agentCli('add', '--room', 'no-such-room', '--name', 'Cedar', '--provider', 'codex');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('letagents-desktop agent: Room "no-such-room" not found (looked in: this computer).\n');
    // A slip of the keyboard gets the nearest rooms, as the MCP tools name them (issue 35 item 17).
    const typo = await agentCli('add', '--room', 'cli-rom', '--name', 'Cedar', '--provider', 'codex');
    expect(typo).toMatchObject({ code: 1, stderr: 'letagents-desktop agent: Room "cli-rom" not found. Did you mean "cli-room"?\n' });
    expect(await listed()).toEqual([]);
    expect((await agentCli('pause', 'Nobody')).stderr).toMatch(/no managed agent is named "Nobody"/);
    const noApp = await runCli(['agent', 'list', '--data-dir', tempDataDir()], { env });
    expect(noApp.code).toBe(1);
    expect(noApp.stderr).toMatch(/no LetAgents app is running for/);
  });

  it("requires --folder inside LetAgents' own checkout (run there through npx), and refuses a name no mention reaches", async () => {
    const inCheckout = await runCli(['agent', 'add', '--room', 'cli-room', '--name', 'Alder', '--provider', 'codex', '--data-dir', serve.dataDir], { env, cwd: join(repoRoot, 'src') });
    expect(inCheckout.code).toBe(2);
    expect(inCheckout.stderr).toContain(`--folder is required here: ${join(repoRoot, 'src')} is inside LetAgents' own checkout (${repoRoot})`);
    const unmentionable = await agentCli('add', '--room', 'cli-room', '--name', 'Fir Tree!!', '--provider', 'codex');
    expect(unmentionable.code).toBe(1);
    expect(unmentionable.stderr).toContain('"Fir Tree!!" cannot be mentioned');
    expect(await listed()).toEqual([]);
  });

  it('refuses a model name that would read as an option; takes instructions from a file or stdin, off the command line (issue 24 item 13)', async () => {
    const optionLike = await agentCli('add', '--room', 'cli-room', '--name', 'Rowan', '--provider', 'codex', '--model=--dangerously-bypass-approvals-and-sandbox');
    expect(optionLike.code).toBe(1);
    expect(optionLike.stderr).toContain('A model name cannot start with "-".');
    expect((await listed()).map((a) => a.name)).not.toContain('Rowan');

    const file = join(tempDir('la-cli-instructions-'), 'role.md');
    writeFileSync(file, 'You review database migrations.\nSecret plans stay off argv.\n');
    const fromFile = await agentCli('add', '--room', 'cli-room', '--name', 'Hazel', '--provider', 'codex', '--instructions-file', file);
    expect(fromFile.stderr).toBe('');
    const fromStdin = await runCli(['agent', 'add', '--room', 'cli-room', '--name', 'Alder', '--provider', 'codex', '--instructions-file', '-', '--data-dir', serve.dataDir], {
      env, cwd: folder, input: 'Instructions from standard input.\n',
    });
    expect(fromStdin.stderr).toBe('');
    const agents = await listed();
    expect(agents.find((a) => a.name === 'Hazel')?.instructions).toBe('You review database migrations.\nSecret plans stay off argv.');
    expect(agents.find((a) => a.name === 'Alder')?.instructions).toBe('Instructions from standard input.');
    const both = await agentCli('add', '--room', 'cli-room', '--name', 'Elm', '--provider', 'codex', '--instructions', 'x', '--instructions-file', file);
    expect(both).toMatchObject({ code: 2, stderr: expect.stringContaining('not both') });
    const missing = await agentCli('add', '--room', 'cli-room', '--name', 'Elm', '--provider', 'codex', '--instructions-file', join(folder, 'nope.md'));
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('cannot read --instructions-file') });
    for (const agent of agents.filter((a) => a.name === 'Hazel' || a.name === 'Alder')) await agentCli('remove', agent.agentId);
  });

  it('the agent socket answers the command line only for managed-agent methods', async () => {
    const refused = await callApp(serve.dataDir, 'rooms.delete', { roomId: 'cli-room' });
    expect(refused).toEqual({ ok: false, error: { code: 'not_allowed', message: 'rooms.delete cannot be called from the command line.' } });
    expect((await callApp(serve.dataDir, 'agents.providers', {})).ok).toBe(true);
    // The room and its history are still there.
    const helper = await connectHelper(serve.dataDir);
    await helper.callTool({ name: 'join_room', arguments: { name: 'cli-room' } });
    const read = toolJson(await helper.callTool({ name: 'read_messages', arguments: { room_id: 'cli-room' } })) as { messages: Array<{ text: string }> };
    expect(read.messages.map((m) => m.text)).toContain('Juniper joined the room.');
    await helper.close();
  });

  it('remove names --discard when the worktree holds unmerged work, and --discard throws it away (issue 35 item 9)', async () => {
    const repo = join(tempDir('la-cli-agent-repo-'), 'project');
    mkdirSync(repo);
    initRepo(repo);
    const add = await runCli(['agent', 'add', '--room', 'cli-room', '--name', 'Birch', '--provider', 'codex', '--permissions', 'edit', '--folder', repo, '--json', '--data-dir', serve.dataDir], { env });
    const birch = JSON.parse(add.stdout) as ManagedAgent;
    expect(birch.workspace).toMatchObject({ kind: 'worktree', branch: 'letagents/birch' });
    // Work the agent left on its branch, as a turn would.
    writeFileSync(join(birch.workspace.path, 'notes.md'), 'half done\n');
    git(birch.workspace.path, 'add', '-A');
    git(birch.workspace.path, 'commit', '-q', '-m', 'notes');

    const refused = await agentCli('remove', 'Birch');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not merged into main');
    expect(refused.stderr).toContain('To throw it away: letagents-desktop agent remove Birch --discard\n');
    expect((await listed()).map((a) => a.name)).toContain('Birch');
    expect(existsSync(birch.workspace.path)).toBe(true);
    expect((await agentCli('pause', 'Birch', '--discard'))).toMatchObject({ code: 2, stderr: expect.stringContaining('--discard goes only with remove') });

    expect(await agentCli('remove', 'Birch', '--discard')).toMatchObject({ code: 0, stdout: 'Removed Birch.\n' });
    expect((await listed()).map((a) => a.name)).not.toContain('Birch');
    expect(existsSync(birch.workspace.path)).toBe(false);
    expect(git(repo, 'branch', '--list', 'letagents/birch')).toBe('');
  });

  it('add puts a sign-in warning on stderr, and with --json into the answer too (issue 35 item 16)', async () => {
    // The app's Claude Code has no sign-in in this home (no key, no login): `claude auth status` says so.
    const text = await agentCli('add', '--room', 'cli-room', '--name', 'Maple', '--provider', 'claude-code');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Added Maple \(Claude Code\) to cli-room/);
    expect(text.stdout).not.toContain('Warning');
    expect(text.stderr).toBe(`Warning: Claude Code at ${CLI_BIN}/claude (found on the app's PATH) is not signed in, so its turns would fail. Run \`${CLI_BIN}/claude auth login\` in a terminal as the person the app runs as. You can add the agent now and sign in afterwards.\n`);

    const json = await agentCli('add', '--room', 'cli-room', '--name', 'Linden', '--provider', 'claude-code', '--json');
    expect(json.code).toBe(0);
    const answer = JSON.parse(json.stdout) as ManagedAgent & { warnings: string[] };
    expect(answer).toMatchObject({ name: 'Linden', provider: 'claude_code' });
    expect(answer.warnings).toEqual([expect.stringContaining('is not signed in, so its turns would fail')]);
    expect(json.stderr).toBe(`Warning: ${answer.warnings[0]}\n`);
    // A CLI that is signed in (the fake's Codex) has nothing to warn about.
    const quiet = await agentCli('add', '--room', 'cli-room', '--name', 'Poplar', '--provider', 'codex', '--json');
    expect(JSON.parse(quiet.stdout).warnings).toEqual([]);
    expect(quiet.stderr).toBe('');
    for (const agent of (await listed()).filter((a) => ['Maple', 'Linden', 'Poplar'].includes(a.name))) await agentCli('remove', agent.agentId);
  });
});
