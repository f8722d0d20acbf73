// Managed agents that may edit a git repository each work in a worktree of their own: real
// git repositories in temp folders, the real Claude Code CLI from npm, a scripted fake model
// (the only fake: the model lives off this machine) whose Write lands in the agent's worktree.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readChanges } from '../../../src/main/agents/workspace/changes';
import { createWorkspace, worktreeRoot } from '../../../src/main/agents/workspace/workspace';
import { cleanupSpawned, tempDir } from '../../support';
import { callTool, identityIn, say, writeInWorktree } from '../../support/fakeModels';
import { waitUntil } from '../../support/waitUntil';
import { git, initRepo } from './gitFixtures';
import { startManagedApp, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'worktree-room';

describe('managed agents in worktrees of their own (real git, real Claude Code, fake model)', () => {
  it('gives two edit-agents separate branches, keeps each edit on its own, merges one, refuses the conflicting one and keeps unmerged work on remove until confirmed', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    initRepo(app.folder);
    const baseTip = git(app.folder, 'rev-parse', 'main');

    const ada = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Ada', permissions: 'edit' });
    const bo = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Bo', permissions: 'edit' });
    expect(ada.workspace).toMatchObject({ kind: 'worktree', branch: 'letagents/ada', base: 'main', repo: app.folder });
    expect(bo.workspace).toMatchObject({ kind: 'worktree', branch: 'letagents/bo', base: 'main' });
    expect(ada.workspace.path).not.toBe(bo.workspace.path);
    expect(ada.workspace.path.startsWith(app.dataDir)).toBe(true);
    expect(git(app.folder, 'branch', '--list', 'letagents/*').replace(/[ *+]/g, '').split('\n')).toEqual(['letagents/ada', 'letagents/bo']);

    app.model.script.push('Ada', writeInWorktree('shared.txt', 'Ada was here\n'), say('Edited shared.txt.'));
    app.model.script.push('Bo', writeInWorktree('shared.txt', 'Bo was here\n'), writeInWorktree('bo.txt', 'new\nfile\n'), say('Edited.'));
    await app.call('agents.runNow', { agentId: ada.agentId });
    await app.call('agents.runNow', { agentId: bo.agentId });
    const adaTurn = await app.turnEnded(ada.agentId, 1);
    const boTurn = await app.turnEnded(bo.agentId, 1);
    expect(adaTurn.status, JSON.stringify(adaTurn)).toBe('done');
    expect(boTurn.status, JSON.stringify(boTurn)).toBe('done');

    // Each edit is in its own worktree only; the person's folder is untouched.
    expect(readFileSync(join(ada.workspace.path, 'shared.txt'), 'utf8')).toBe('Ada was here\n');
    expect(readFileSync(join(bo.workspace.path, 'shared.txt'), 'utf8')).toBe('Bo was here\n');
    expect(existsSync(join(ada.workspace.path, 'bo.txt'))).toBe(false);
    expect(readFileSync(join(app.folder, 'shared.txt'), 'utf8')).toBe('first line\n');
    expect(existsSync(join(app.folder, 'bo.txt'))).toBe(false);
    // The turn's activity says what changed.
    expect(adaTurn.entries.map((e) => e.text)).toContain('Changes on letagents/ada against main: 1 file (+1 −1), 1 uncommitted: shared.txt.');
    expect(boTurn.entries.map((e) => e.text)).toContain('Changes on letagents/bo against main: 2 files (+3 −1), 2 uncommitted: bo.txt, shared.txt.');

    const changes = await app.call('agents.changes', { agentId: ada.agentId, diff: true });
    expect(changes.files).toEqual([{ path: 'shared.txt', added: 1, removed: 1, binary: false }]);
    expect(changes.diff).toContain('-first line\n+Ada was here');
    // Reading the changes left the agent's own staging alone.
    expect(git(ada.workspace.path, 'diff', '--cached', '--name-only')).toBe('');

    // Remove keeps a worktree with uncommitted work until the person confirms.
    const refused = await app.fail('agents.remove', { agentId: bo.agentId });
    expect(refused).toContain('2 uncommitted files');
    expect(existsSync(join(bo.workspace.path, 'bo.txt'))).toBe(true);
    expect((await app.call('agents.list', {})).map((a) => a.name)).toContain('Bo');

    const merged = await app.call('agents.merge', { agentId: ada.agentId });
    expect(merged).toMatchObject({ merged: true, conflicts: [], reason: null });
    expect(readFileSync(join(app.folder, 'shared.txt'), 'utf8')).toBe('Ada was here\n');
    expect(git(app.folder, 'rev-parse', 'main')).toBe(merged.commit);
    const mergedTip = merged.commit!;

    const conflict = await app.call('agents.merge', { agentId: bo.agentId });
    expect(conflict.merged).toBe(false);
    expect(conflict.conflicts).toEqual(['shared.txt']);
    expect(conflict.reason).toContain('shared.txt');
    // The base is untouched: same commit, same files, nothing half-merged.
    expect(git(app.folder, 'rev-parse', 'main')).toBe(mergedTip);
    expect(git(app.folder, 'status', '--porcelain')).toBe('');
    expect(readFileSync(join(app.folder, 'shared.txt'), 'utf8')).toBe('Ada was here\n');
    expect(existsSync(join(app.folder, 'bo.txt'))).toBe(false);
    expect(git(app.folder, 'rev-list', '--count', `${baseTip}..main`)).toBe('2');

    // Ada's branch is merged and her worktree clean: removing her removes both.
    await app.call('agents.remove', { agentId: ada.agentId });
    expect(existsSync(ada.workspace.path)).toBe(false);
    expect(git(app.folder, 'branch', '--list', 'letagents/ada')).toBe('');
    // Bo's work is unmerged: refused until confirmed, then gone.
    expect(await app.fail('agents.remove', { agentId: bo.agentId })).toContain('not merged into main');
    await app.call('agents.remove', { agentId: bo.agentId, discardWork: true });
    expect(existsSync(bo.workspace.path)).toBe(false);
    expect(git(app.folder, 'branch', '--list', 'letagents/bo')).toBe('');
  });

  it('discards an agent\'s changes on confirm, and its next turn starts again from the base', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    initRepo(app.folder);
    const ada = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Ada', permissions: 'edit' });
    app.model.script.push('Ada', writeInWorktree('shared.txt', 'scrap\n'), say('Edited.'));
    await app.call('agents.runNow', { agentId: ada.agentId });
    expect((await app.turnEnded(ada.agentId, 1)).status).toBe('done');
    await app.call('agents.discard', { agentId: ada.agentId });
    expect(existsSync(ada.workspace.path)).toBe(false);
    expect(await app.fail('agents.changes', { agentId: ada.agentId })).toContain('discarded');
    await app.call('agents.runNow', { agentId: ada.agentId });
    const second = await app.turnEnded(ada.agentId, 2);
    expect(second.entries.map((e) => e.text)).toContain('No changes on letagents/ada against main.');
    expect(readFileSync(join(ada.workspace.path, 'shared.txt'), 'utf8')).toBe('first line\n');
  });
});

describe('a task a managed agent takes', () => {
  it('gets the branch of the agent\'s worktree among its artifacts when the agent claims it', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    initRepo(app.folder);
    const task = await app.call('tasks.create', { roomId: ROOM, title: 'Write the release notes' });
    expect(task.status).toBe('accepted');
    const ada = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Ada', permissions: 'edit' });
    app.model.script.push(
      'Ada',
      callTool('register_agent_session', (r) => identityIn(r)),
      callTool('claim_task', (r) => ({ worker_id: identityIn(r).worker_id, task_id: task.id })),
      say('Claimed it.'),
    );
    await app.call('agents.runNow', { agentId: ada.agentId });
    expect((await app.turnEnded(ada.agentId, 1)).status).toBe('done');
    const artifactsOf = async () => (await app!.call('tasks.get', { roomId: ROOM, number: task.number })).artifacts;
    await waitUntil(async () => (await artifactsOf()).length > 0, 10_000, 'the branch artifact');
    const detail = await app.call('tasks.get', { roomId: ROOM, number: task.number });
    expect(detail.status).toBe('assigned');
    expect(detail.assignee?.name).toBe('Ada');
    expect(detail.artifacts).toEqual([{ provider: 'unknown', kind: 'branch', ref: 'letagents/ada', id: null, number: null, title: null, url: null, state: null }]);
  });
});

describe('where an agent works when it gets no worktree', () => {
  it('works in the folder itself when it only reads, when asked to, or outside a repository, and says why', async () => {
    const data = tempDir('la-ws-data-');
    const plain = tempDir('la-ws-plain-');
    const repo = tempDir('la-ws-repo-');
    initRepo(repo);
    const base = { agentId: 'agent_x', name: 'X' };
    expect(await createWorkspace(data, { ...base, folder: plain, writes: true, inFolder: false })).toMatchObject({ kind: 'folder', path: plain, note: expect.stringContaining('not in a git repository') });
    expect(await createWorkspace(data, { ...base, folder: repo, writes: false, inFolder: false })).toMatchObject({ kind: 'folder', note: expect.stringContaining('only read') });
    expect(await createWorkspace(data, { ...base, folder: repo, writes: true, inFolder: true })).toMatchObject({ kind: 'folder', note: expect.stringContaining('as chosen') });
    // An agent for a subfolder works in the same subfolder of its worktree.
    mkdirSync(join(repo, 'pkg'));
    writeFileSync(join(repo, 'pkg', 'a.txt'), 'a\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'pkg');
    const sub = await createWorkspace(data, { ...base, folder: join(repo, 'pkg'), writes: true, inFolder: false });
    expect(sub).toMatchObject({ kind: 'worktree', branch: 'letagents/x', path: join(data, 'worktrees', 'agent_x', 'pkg') });
    expect(readFileSync(join(sub.path, 'a.txt'), 'utf8')).toBe('a\n');
  });

  it('gives an agent whose name git would refuse as a branch (x.lock, a name cut after a dot) a worktree on a valid branch, not the person\'s checkout (issue 32 item 15)', async () => {
    const data = tempDir('la-ws-data-');
    const repo = tempDir('la-ws-repo-');
    initRepo(repo);
    // Valid agent names (letters, digits, _ . : / -) that are not valid as they stand in a branch name.
    const names = ['x.lock', 'Build/Bot.lock', `${'a'.repeat(39)}.b`, 'v2..final', 'ci:lock.lock'];
    for (const [i, name] of names.entries()) {
      const ws = await createWorkspace(data, { agentId: `agent_${i}`, name, folder: repo, writes: true, inFolder: false });
      expect(ws, name).toMatchObject({ kind: 'worktree', note: null });
      // git's own rule for branch names accepts it, and the worktree is on it.
      expect(git(repo, 'check-ref-format', '--branch', ws.branch!)).toBe(ws.branch);
      expect(git(ws.path, 'symbolic-ref', '--short', 'HEAD')).toBe(ws.branch);
    }
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });
});

describe('what an agent changed on its branch', () => {
  it('counts its commits and its uncommitted and new files against the point it left the base, not what the base did since', async () => {
    const data = tempDir('la-ws-data-');
    const repo = tempDir('la-ws-repo-');
    initRepo(repo);
    const ws = await createWorkspace(data, { agentId: 'agent_c', name: 'C', folder: repo, writes: true, inFolder: false });
    const tree = worktreeRoot(data, 'agent_c');
    const w = { root: tree, gitDir: ws.gitDir!, repo, branch: ws.branch!, base: 'main' };
    expect(await readChanges(w, false)).toMatchObject({ files: [], commits: 0, uncommittedFiles: 0 });
    // The agent commits one change, then leaves one edit uncommitted and one new file.
    writeFileSync(join(tree, 'README.md'), '# Project\nby C\n');
    git(tree, 'commit', '-q', '-am', 'readme');
    writeFileSync(join(tree, 'shared.txt'), 'changed\n');
    writeFileSync(join(tree, 'new.txt'), 'a\nb\n');
    // Meanwhile the person's main moves on: none of that is the agent's change.
    writeFileSync(join(repo, 'person.txt'), 'mine\n');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'person');
    const changes = await readChanges(w, true);
    expect(changes.files).toEqual([
      { path: 'README.md', added: 1, removed: 0, binary: false },
      { path: 'new.txt', added: 2, removed: 0, binary: false },
      { path: 'shared.txt', added: 1, removed: 1, binary: false },
    ]);
    expect(changes).toMatchObject({ commits: 1, uncommittedFiles: 2, added: 4, removed: 1 });
    expect(changes.diff).toContain('+by C');
    expect(changes.diff).not.toContain('person.txt');
  });
});
