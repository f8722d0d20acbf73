// Links to a FIFO, to /dev/zero, to a device and to a huge file, and a huge file, in an agent's
// worktree (issue 32, item 5): the per-turn stat and Changes count them without reading
// through them, and the app keeps answering meanwhile. A real `serve` (a frozen app cannot
// answer; the test process stays free to notice), the real Claude Code CLI for the turn, a
// fake model server (the only fake), real git.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApp } from '../../../src/cli/appApi';
import type { MethodName } from '../../../src/shared/bridge';
import type { MethodInput, MethodOutput } from '../../../src/shared/contract';
import { cleanupSpawned, connectHelper, ensureCliBuilt, startServe, tempDir, waitUntil, type ServeHandle } from '../../support';
import { say, startFakeModel, type FakeModel } from '../../support/fakeModels';
import { initRepo } from './gitFixtures';
import { CLI_BIN } from './managedApp';

const ROOM = 'special-files-room';
let serve: ServeHandle;
let model: FakeModel;
let folder: string;

beforeAll(async () => {
  await ensureCliBuilt();
  model = await startFakeModel('claude_code', tempDir('la-special-home-'));
  serve = await startServe({ env: { ...model.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` } });
  folder = join(tempDir('la-special-'), 'project');
  mkdirSync(folder);
  initRepo(folder);
  const helper = await connectHelper(serve.dataDir);
  await helper.callTool({ name: 'join_room', arguments: { name: ROOM } });
  await helper.close();
}, 60_000);

afterAll(async () => {
  // Killed, not stopped: an app that froze would never finish a graceful stop.
  await cleanupSpawned();
  await model?.close();
});

async function call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>> {
  const result = await callApp(serve.dataDir, method, input);
  if (!result.ok) throw new Error(`${method} failed: ${result.error.message}`);
  return result.value as MethodOutput<M>;
}

describe('special files in an agent\'s worktree', () => {
  it('are counted without being read (no link followed, no pipe or device opened, nothing huge read) while the app answers other calls', { timeout: 120_000 }, async () => {
    const agent = await call('agents.add', { provider: 'claude_code', folder, roomId: ROOM, name: 'Ada', permissions: 'edit' });
    expect(agent.workspace).toMatchObject({ kind: 'worktree', branch: 'letagents/ada' });
    const tree = agent.workspace.path;
    // What an agent can make in its own folder: a FIFO nobody writes to and links to it, to
    // endless and device files, and to a huge file elsewhere; a huge file of its own (sparse).
    execFileSync('mkfifo', [join(tree, 'pipe')]);
    symlinkSync(join(tree, 'pipe'), join(tree, 'a-link-to-a-pipe'));
    symlinkSync('/dev/zero', join(tree, 'b-link-to-dev-zero'));
    symlinkSync('/dev/urandom', join(tree, 'c-link-to-a-device'));
    const elsewhere = join(tempDir('la-special-huge-'), 'huge.bin');
    writeFileSync(elsewhere, '');
    truncateSync(elsewhere, 64 * 2 ** 30);
    symlinkSync(elsewhere, join(tree, 'd-link-to-a-huge-file'));
    writeFileSync(join(tree, 'e-huge.bin'), '');
    truncateSync(join(tree, 'e-huge.bin'), 16 * 2 ** 30);
    writeFileSync(join(tree, 'notes.md'), '# Notes\nfrom Ada\n');

    // The Changes stat and another call, side by side: both are answered.
    const [changes, listed] = await Promise.all([call('agents.changes', { agentId: agent.agentId, diff: false }), call('agents.list', {})]);
    expect(listed.map((a) => a.name)).toEqual(['Ada']);
    // A link counts as the one line git records for it (its target); git itself lists no FIFO.
    expect(changes.files).toEqual([
      { path: 'a-link-to-a-pipe', added: 1, removed: 0, binary: false },
      { path: 'b-link-to-dev-zero', added: 1, removed: 0, binary: false },
      { path: 'c-link-to-a-device', added: 1, removed: 0, binary: false },
      { path: 'd-link-to-a-huge-file', added: 1, removed: 0, binary: false },
      { path: 'e-huge.bin', added: 0, removed: 0, binary: true },
      { path: 'notes.md', added: 2, removed: 0, binary: false },
    ]);

    // The turn's own stat, at the end of a real turn.
    model.script.push('Ada', say('Looked around.'));
    await call('agents.runNow', { agentId: agent.agentId });
    const ended = async () => (await call('agents.activity', { agentId: agent.agentId, limit: 5 })).turns.find((t) => t.number === 1 && t.status !== 'running');
    await waitUntil(async () => (await ended()) !== undefined, 60_000, 'the turn to end');
    const turn = (await ended())!;
    expect(turn.status, JSON.stringify(turn)).toBe('done');
    expect(turn.entries.map((e) => e.text)).toContain(
      'Changes on letagents/ada against main: 6 files (+6 −0), 6 uncommitted: a-link-to-a-pipe, b-link-to-dev-zero, c-link-to-a-device, d-link-to-a-huge-file, e-huge.bin, ….',
    );
    expect((await call('agents.list', {}))[0].lastTurn?.status).toBe('done');

    // The diff (git hashes every new file for it; a 16 GiB one would take longer than git is
    // given, so it goes first) shows each link as the path it names, never what is behind it.
    rmSync(join(tree, 'e-huge.bin'));
    const [withDiff] = await Promise.all([call('agents.changes', { agentId: agent.agentId, diff: true }), call('agents.list', {})]);
    expect(withDiff.diff).toContain('+/dev/zero\n');
    expect(withDiff.diff).toContain(`+${elsewhere}\n`);
    expect(withDiff.files).toHaveLength(5);
  });
});
